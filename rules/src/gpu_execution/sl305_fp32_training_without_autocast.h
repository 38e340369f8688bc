#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL305: conv/matmul work runs in 32-bit precision (FP32, or TF32 on tensor cores) with no
/// autocast on a GPU with bfloat16 tensor cores (issue 13).
class Fp32TrainingWithoutAutocastRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_share_ = 0.1;
  double max_reduced_share_ = 0.2;
  double assumed_speedup_ = 2.0;
};

}  // namespace steplint::rules
