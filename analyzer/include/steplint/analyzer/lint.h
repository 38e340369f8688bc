// Running the selected rules over one trace (`steplint check`).
#pragma once

#include <string>
#include <vector>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/rule.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/analyzer/summary.h"

namespace steplint::analyzer {

/// What fixing every finding of a trace would save per step (the step replay, docs/savings.md):
/// never more than the step, and the sum of the findings' shares.
struct SavingsTotal {
  double per_step_ms = -1;  // < 0: no finding has a time saving
  double low_ms = -1;       // the pessimistic end (< 0: same as per_step_ms)
  double fraction_of_step = -1;
  double step_ms = -1;  // the replayed step the fractions are of: without the profiler's cost
  double profiler_overhead_ms = 0;  // what the recording added per step, taken out before replaying
  std::string profiler_overhead;    // how that cost per event was obtained
  size_t findings = 0;              // findings whose shares make it up
  size_t suppressed = 0;            // of those, hidden by a baseline (applyBaseline): their shares
                                    // are in the total but no longer listed
  size_t replayed_steps = 0;        // steps in the replayed window
  bool exact_shares = true;         // false: shares from sampled fix orders (many findings)
  /// The one step is the whole trace (no ProfilerStep ranges, no iterations detected): every
  /// "ms/step" of the trace is for the whole trace, however many iterations it holds.
  bool whole_trace_step = false;
  /// Non-empty when the findings have time savings but none was estimated, and why (the replay
  /// did not reproduce the recorded steps); per_step_ms is then < 0.
  std::string not_estimated;
};

struct LintResult {
  std::string source;                   // the trace path
  std::vector<Diagnostic> diagnostics;  // sorted: severity (high first), code, first step
  std::vector<NotChecked> not_checked;
  double average_step_ms = 0;
  SavingsTotal saving_all;
};

/// Fills the saving of every finding that has a FixEffect with its share of fixing all of
/// them (the step replay, docs/savings.md) and returns the total. runLint calls it; tests of a
/// single rule call it too, so they see the numbers users see.
SavingsTotal attributeSavings(const AnalysisContext& context, std::vector<Diagnostic>& diagnostics);

/// The codes of the findings that fixing all of them leaves out, once each, in order: those
/// without a time saving (the gate's SL801 is no fix and is not counted). The text, Markdown
/// and GUI name them beside saving_all, so "all" is not read as every finding listed.
std::vector<std::string> findingsLeftOutOfSavings(const LintResult& lint);

/// Builds the selected rules with their options from `config` and runs them. The rules are
/// this run's own (RuleDefinition::create), so runs may share the registry and overlap.
LintResult runLint(const trace::TraceModel& model, const TraceSummary& summary,
                   const RuleRegistry& registry, const LintConfig& config);

}  // namespace steplint::analyzer
