// CheckCommand's regression gate (`check NEW --compare BASE...`): the base runs read once
// (traces, or jobs' ranks: gate_base.h) and each checked trace compared with its base runs.
#include <cstdio>

#include "check_command.h"
#include "messages.h"
#include "steplint/analyzer/regression.h"

namespace steplint::cli {

bool CheckCommand::openGateBase(GateBase& base, analyzer::GateOptions& gate) const {
  std::string error;
  std::vector<std::string> warnings;
  // One checked trace: a single-process run's folder on the base side is that run's trace.
  const bool one_trace = inputs_.size() == 1 && inputs_[0].kind == JobInput::Kind::kTrace;
  const bool opened = base.open(compare_paths_, step_flags_.options(), one_trace, warnings, error);
  for (std::string& w : warnings) warn(std::move(w));
  if (!opened) {
    if (!error.empty()) printError(error);
    return false;
  }
  if (!base.isJob()) return true;
  // Each checked rank is a test of its own (gate_base.h): Bonferroni across them.
  size_t checked = 0;
  for (const JobInput& input : inputs_) checked += input.kind == JobInput::Kind::kTrace;
  if (checked > 1) {
    gate.alpha /= static_cast<double>(checked);
    char level[32];
    std::snprintf(level, sizeof level, "%.4g", gate.alpha);
    printNote("regression gate: " + std::to_string(checked) +
              " traces compared rank by rank with the base job" +
              (compare_paths_.size() > 1 ? "s" : "") + ": each is tested at significance " + level +
              " (the level divided by the traces), so a quiet job fails no more often than one "
              "trace");
  }
  return true;
}

void CheckCommand::gateTrace(const trace::TraceModel& model, const analyzer::GateOptions& gate,
                             GateBase& bases, analyzer::TraceReport& entry, bool& all_ok) const {
  std::string source, why;
  std::vector<std::string> warnings;
  const std::vector<const analyzer::RunProfile*> base_runs =
      bases.basesFor(checkedRank(model, entry.lint.source), source, why, warnings);
  for (std::string& w : warnings) warn(std::move(w));
  if (base_runs.empty()) {
    all_ok = all_ok && !bases.readFailed();
    printNote("regression gate, " + entry.lint.source + ": undecided: " + why);
    entry.lint.not_checked.push_back({std::string(analyzer::kRegressionCode),
                                      std::string(analyzer::kRegressionName),
                                      "cannot decide: " + why});
    return;
  }
  const analyzer::RunProfile next = analyzer::profileRun(model, entry.summary, nullptr);
  const std::vector<analyzer::GateCheck> checks = analyzer::runGate(base_runs, next, gate);
  for (const analyzer::GateCheck& c : checks) {
    std::string against;
    if (c.base_runs > 1)
      against = " (against the slowest of " + std::to_string(c.base_runs) + " base runs, " +
                c.base_source + ")";
    printNote("regression gate, " + entry.lint.source + ": " +
              std::string(analyzer::gateVerdictName(c.verdict)) + ": " + c.reason + against);
  }
  // What diff would say first: other devices, another model, no steps. A CPU-only base
  // against a GPU run is no regression of the code, and the gate must say so.
  const std::vector<std::string> notes = analyzer::diffRuns(*base_runs.front(), next).notes;
  for (const std::string& n : notes) warn("regression gate, " + entry.lint.source + ": " + n);
  analyzer::addGateResults(checks, source, entry.lint, notes);
}

}  // namespace steplint::cli
