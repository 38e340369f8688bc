#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL604: a GPU is present but the heavy ops run on the CPU.
class GpuIdleWhileCpuBusyRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_share_ = 0.2;
  double min_median_op_us_ = 100.0;
  double assumed_speedup_ = 5.0;
};

}  // namespace steplint::rules
