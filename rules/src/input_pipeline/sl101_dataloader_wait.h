#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL101: the training loop waits for the DataLoader for a large share of each step.
class DataLoaderWaitRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_wait_fraction_ = 0.05;
  int64_t cpu_cores_ = 0;
  int64_t workers_per_gpu_ = 4;
};

}  // namespace steplint::rules
