#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL204: a tensor is created on the CPU by a factory op and copied to the GPU right after,
/// every step, instead of being created on the GPU.
class CpuTensorMovedToGpuRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_step_fraction_ = 0.5;
};

}  // namespace steplint::rules
