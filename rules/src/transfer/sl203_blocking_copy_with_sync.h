#pragma once

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// SL203: a copy to the device that blocks the host (pageable source, a synchronize right
/// after the copy call, or a synchronous copy API), so the CPU cannot queue further work.
class BlockingCopyWithSyncRule final : public analyzer::Rule {
 public:
  const analyzer::RuleInfo& info() const override;
  std::vector<analyzer::OptionSpec> options() const override;
  void configure(const analyzer::RuleOptions& options) override;
  void check(const analyzer::AnalysisContext& context, analyzer::DiagnosticSink& sink) const override;

 private:
  double min_blocked_ms_per_step_ = 0.1;
};

}  // namespace steplint::rules
