#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL303: conv/matmul work runs FP32 kernels on a GPU with tensor cores (tb_plugin R6, AMP).
class Fp32MatmulOnTensorCoresRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_eligible_share_ = 0.1;
  double max_tensor_core_share_ = 0.5;
  double assumed_speedup_ = 2.0;
};

}  // namespace steplint::rules
