#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL301: a GPU runs kernels less than half of the step time (tb_plugin R5).
class LowGpuUtilizationRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_utilization_ = 0.5;
  int64_t launch_gap_ns_ = 100'000;
};

}  // namespace steplint::rules
