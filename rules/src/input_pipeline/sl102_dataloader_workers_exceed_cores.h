#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL102: more DataLoader workers than the host has CPU cores for them.
class DataLoaderWorkersExceedCoresRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  int64_t cpu_cores_ = 0;
  int64_t processes_per_host_ = 0;
};

}  // namespace steplint::rules
