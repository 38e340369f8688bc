#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL603: torch.tensor() copies an existing array or tensor every step, where torch.as_tensor /
/// torch.from_numpy would share its memory (PyTorch tuning guide).
class TorchTensorCopyRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_step_fraction_ = 0.5;
  double min_share_ = 0.01;
};

}  // namespace steplint::rules
