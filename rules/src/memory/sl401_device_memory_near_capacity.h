#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL401: peak allocated GPU memory above 90% of the device's capacity (tb_plugin R7, TB-Q5 fixed).
class DeviceMemoryNearCapacityRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double max_fraction_ = 0.9;
};

}  // namespace steplint::rules
