#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL302: many tiny kernels and a GPU that idles between them waiting for the next launch.
class LaunchBoundSmallKernelsRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double max_median_kernel_us_ = 10.0;
  int64_t launch_gap_ns_ = 100'000;
  double min_launch_idle_fraction_ = 0.1;
  int64_t min_kernels_per_step_ = 100;
};

}  // namespace steplint::rules
