#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL601: zero_grad fills gradients with zeros instead of releasing them (TorchTidy GradNotSetToNonePattern).
class GradZeroedNotNoneRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  int64_t min_zero_ops_per_step_ = 1;
};

}  // namespace steplint::rules
