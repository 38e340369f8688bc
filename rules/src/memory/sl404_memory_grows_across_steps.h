#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL404: device or host memory grows step after step (tensors kept alive across iterations).
class MemoryGrowsAcrossStepsRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  int64_t min_steps_ = 5;
  double min_growth_mib_ = 16.0;
  double min_growth_fraction_ = 0.05;
  double min_rising_fraction_ = 0.8;
};

}  // namespace steplint::rules
