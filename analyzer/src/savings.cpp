#include "steplint/analyzer/lint.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "steplint/analyzer/fix_effect.h"
#include "steplint/analyzer/profiler_overhead.h"
#include "steplint/analyzer/regression.h"
#include "steplint/analyzer/replay.h"

namespace steplint::analyzer {
namespace {

std::string format(const char* pattern, double a, double b) {
  char buffer[240];
  std::snprintf(buffer, sizeof buffer, pattern, a, b);
  return buffer;
}

/// How far the unchanged replay may stray from the recorded window before no saving drawn from
/// it is trusted. It reproduces every test and fixture trace, and HTA's test traces, within
/// 0.1 %; a queue order it cannot model (docs/savings.md) showed as 2.5 and 12.5 times the step.
constexpr double kReproduceTolerance = 0.02;

/// Empty when the replay, unchanged, gives the recorded window back; else why not.
std::string replayMismatch(const StepReplay& replay) {
  const double steps = static_cast<double>(replay.windowSteps());
  const double observed = replay.observedStepNs();
  const double unchanged = replay.replayWindowNs(0) / steps;
  if (std::fabs(unchanged - observed) > kReproduceTolerance * observed)
    return format(
        "not estimated: the replay of the kept steps, unchanged, gives %.1f ms per step where the "
        "trace shows %.1f ms, so no saving drawn from it can be trusted (docs/savings.md)",
        unchanged / 1e6, observed / 1e6);
  // The steady state cannot be shorter than the device work one queue holds per step. A host
  // far ahead of its GPU launched much of the window's work before the window: the first pass
  // places those ops as recorded, later passes lose them (a 22.8 ms step of 22.5 ms of kernels
  // replayed at 14.5 ms).
  const double floor = replay.deviceFloorStepNs();
  const double steady = replay.replayStepNs(0, {false, /*keep_overhead=*/true});
  if (steady >= floor * (1 - kReproduceTolerance)) return {};
  return format(
      "not estimated: the replayed steady state runs %.1f ms per step, less than the %.1f ms of "
      "device work one queue holds per step in the trace, so the replay lost work it could not "
      "place (docs/savings.md)",
      steady / 1e6, floor / 1e6);
}

/// A warning says that something costs step time. When the replay finds that fixing it would
/// save next to nothing, alone or with the others (the GPU is not what bounds the step, say),
/// it stays reported but as a note, so that `fail-on = "warning"` gates on what costs time.
void demoteIfNegligible(Diagnostic& d, double step_ms) {
  constexpr double kNegligibleShare = 0.005;  // of the step, and
  constexpr double kNegligibleMs = 0.05;      // per step, whichever is larger
  const double limit = std::max(kNegligibleMs, kNegligibleShare * step_ms);
  if (d.severity != Severity::kWarning || d.saving.per_step_ms >= limit ||
      d.saving.alone_ms >= limit)
    return;
  d.severity = Severity::kNote;
  d.saving.method += "; a note, not a warning: fixing it would save under 0.5% of the step";
}

}  // namespace

SavingsTotal attributeSavings(const AnalysisContext& context,
                              std::vector<Diagnostic>& diagnostics) {
  SavingsTotal all;
  std::vector<Diagnostic*> with_effect;
  std::vector<FixEffect> effects;
  for (Diagnostic& d : diagnostics) {
    if (!d.effect || d.effect->empty() || with_effect.size() == StepReplay::kMaxFixes) continue;
    with_effect.push_back(&d);
    effects.push_back(*d.effect);
  }
  if (with_effect.empty()) return all;
  // The summary's: profilerOverhead() walks every event of a torch.profiler trace to bound it.
  const ProfilerOverhead& overhead = context.summary().profiler.overhead;
  const StepReplay replay(context.model(), context.steps(), effects, overhead);
  if (!replay.valid()) return all;
  if (std::string why = replayMismatch(replay); !why.empty()) {
    for (Diagnostic* d : with_effect) d->saving.method = why;
    all.not_estimated = std::move(why);
    return all;
  }
  const FixSavings savings = computeFixSavings(replay);
  if (savings.step_ns <= 0) return all;
  // Figures are per step of the replayed steady state without the profiler's cost: what the
  // trainer would see unprofiled. The shares add up to the fix-all saving, which cannot exceed
  // that step.
  const double step_ms = savings.step_ns / 1e6;
  for (size_t i = 0; i < with_effect.size(); ++i) {
    SavingEstimate& s = with_effect[i]->saving;
    s.per_step_ms = std::max(0.0, savings.share_ns[i]) / 1e6;
    s.fraction_of_step = s.per_step_ms / step_ms;
    s.alone_ms = std::max(0.0, savings.alone_ns[i]) / 1e6;
    const double low = std::max(0.0, savings.share_low_ns[i]) / 1e6;
    s.low_ms = low < s.per_step_ms - 1e-9 ? low : -1;
    s.method += format(
        "; replayed over %.0f steps: its share of fixing all findings (%.1f ms/step if fixed alone)",
        static_cast<double>(replay.windowSteps()), s.alone_ms);
    demoteIfNegligible(*with_effect[i], step_ms);
  }
  all.per_step_ms = std::max(0.0, savings.all_ns) / 1e6;
  const double all_low = std::max(0.0, savings.all_low_ns) / 1e6;
  all.low_ms = all_low < all.per_step_ms - 1e-9 ? all_low : -1;
  all.fraction_of_step = all.per_step_ms / step_ms;
  all.step_ms = step_ms;
  all.profiler_overhead_ms = std::max(0.0, savings.recorded_step_ns - savings.step_ns) / 1e6;
  all.profiler_overhead = overhead.source;
  all.findings = with_effect.size();
  all.replayed_steps = replay.windowSteps();
  all.exact_shares = savings.exact_shares;
  all.whole_trace_step = context.steps().source == StepSource::kWholeTrace;
  return all;
}

std::vector<std::string> findingsLeftOutOfSavings(const LintResult& lint) {
  std::vector<std::string> codes;
  for (const Diagnostic& d : lint.diagnostics)
    if (!d.saving.known() && d.code != kRegressionCode &&
        std::find(codes.begin(), codes.end(), d.code) == codes.end())
      codes.push_back(d.code);
  return codes;
}

}  // namespace steplint::analyzer
