#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL304: convolutions with fixed shapes every step while cudnn.benchmark is recorded as off.
class CudnnBenchmarkOffRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double assumed_gain_ = 0.1;
};

}  // namespace steplint::rules
