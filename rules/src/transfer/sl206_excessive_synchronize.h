#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL206: many synchronize API calls per step (cudaStreamSynchronize, cudaDeviceSynchronize,
/// cudaEventSynchronize), whatever issued them: the nsys `cuda_api_sync` view per step.
class ExcessiveSynchronizeRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double max_syncs_per_step_ = 2;
};

}  // namespace steplint::rules
