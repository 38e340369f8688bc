#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL501: nn.DataParallel drives more than one GPU (tb_plugin R2).
class DataparallelOnMultiGpuRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  int64_t min_devices_ = 2;
};

}  // namespace steplint::rules
