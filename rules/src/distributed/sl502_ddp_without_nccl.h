#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL502: DistributedDataParallel on GPUs without the NCCL backend (tb_plugin R3).
class DdpWithoutNcclRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double assumed_speedup_ = 2.0;
};

}  // namespace steplint::rules
