#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL606: gradient clipping computes a norm and scales one gradient at a time (clip_grad_norm_
/// with foreach=False, PyTorch < 2.0, or LibTorch's loop) where the foreach form batches them.
class PerParameterGradClippingRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  int64_t min_kernels_per_step_ = 50;
  int64_t min_norm_run_ = 16;
  double max_median_kernel_us_ = 20.0;
  double assumed_speedup_ = 2.0;
};

}  // namespace steplint::rules
