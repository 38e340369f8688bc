#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL602: the optimizer step launches small kernels parameter by parameter (TorchTidy OptimizerSingleTensorPattern).
class PerParameterOptimizerStepRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  int64_t min_kernels_per_step_ = 100;
  double max_median_kernel_us_ = 20.0;
  double assumed_speedup_ = 2.0;
};

}  // namespace steplint::rules
