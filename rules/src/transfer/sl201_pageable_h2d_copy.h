#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL201: host-to-device copies read from pageable (not pinned) host memory.
class PageableH2dCopyRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_bytes_per_step_ = 1024.0 * 1024.0;
  double pinned_gbps_ = 0;  // 0 = from the trace / GPU generation
};

}  // namespace steplint::rules
