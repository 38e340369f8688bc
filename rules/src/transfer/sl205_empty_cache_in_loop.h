#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL205: the CUDA caching allocator's cache is emptied inside the training loop
/// (torch.cuda.empty_cache()), so memory is freed and re-allocated with cudaFree/cudaMalloc
/// every step.
class EmptyCacheInLoopRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_step_fraction_ = 0.5;
  double min_frees_per_step_ = 1;
};

}  // namespace steplint::rules
