#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL402: a GPU that is both under-utilized and uses little of its memory: room for a larger batch.
class GpuMemoryHeadroomRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double max_memory_fraction_ = 0.5;
  double max_utilization_ = 0.8;
};

}  // namespace steplint::rules
