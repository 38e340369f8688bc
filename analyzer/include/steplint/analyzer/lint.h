// Running the selected rules over one trace (`steplint check`).
#pragma once

#include <string>
#include <vector>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/analyzer/summary.h"

namespace steplint::analyzer {

struct LintResult {
  std::string source;                   // the trace path
  std::vector<Diagnostic> diagnostics;  // sorted: severity (high first), code, first step
  std::vector<NotChecked> not_checked;
  double average_step_ms = 0;
};

/// Configures the selected rules from `config` and runs them. Rules are configured on a
/// private copy of their options, so the registry can be reused.
LintResult runLint(const trace::TraceModel& model, const TraceSummary& summary, const RuleRegistry& registry,
                   const LintConfig& config);

}  // namespace steplint::analyzer
