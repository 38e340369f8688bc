// What fixing findings would save, by replaying the kept steps with the fixes applied
// (docs/savings.md).
//
// The kept steps become a small max-plus program: one serial host timeline of segments
// (running, or blocked until a given GPU op has finished) with GPU launches at its boundaries,
// and one FIFO queue per GPU stream whose ops start when they are launched, when the stream's
// previous op ends and when the op they waited for on another stream ends. Replayed unchanged
// it reproduces the observed steps; replayed with some host time shrunk, some GPU ops
// shortened or some waits gone it gives the step time after those fixes. Every operation is a
// sum or a max of non-negative terms, so applying one more fix never makes the replay slower:
// per-fix shares (Shapley values over the fixes) are never negative and add up exactly to the
// "fix all" saving, which can never exceed the step.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "steplint/analyzer/fix_effect.h"
#include "steplint/analyzer/profiler_overhead.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// The replayable program of one trace's kept steps (opaque; built once per trace).
struct ReplayProgram;

/// Which variant of the replay to run.
struct ReplayScenario {
  bool worst = false;          // the fixes' pessimistic factors (FixEffect::*_worst)
  bool keep_overhead = false;  // the host timeline as recorded, the profiler's cost left in
};

/// Mean step times, in ns, of the kept steps replayed with a set of fixes.
class StepReplay {
 public:
  /// At most 64 fixes (a bit each); more are ignored.
  static constexpr size_t kMaxFixes = 64;

  /// `overhead`: what recording one host event added to its thread, by sort
  /// (profilerOverhead()); replays take it out of the host timeline unless a scenario keeps it.
  StepReplay(const trace::TraceModel& model, const StepResult& steps,
             const std::vector<FixEffect>& fixes, const ProfilerOverhead& overhead = {});
  ~StepReplay();
  StepReplay(StepReplay&&) noexcept;
  StepReplay& operator=(StepReplay&&) noexcept;

  /// False when there is nothing to replay (no kept steps).
  bool valid() const;
  /// Kept steps in the replayed window (a contiguous run of the kept steps; all of them unless
  /// the trace is very large).
  size_t windowSteps() const;
  /// Mean step over the window as observed in the trace.
  double observedStepNs() const;
  /// The window's length replayed once with the fixes whose bits are set in `mask` applied.
  /// With mask 0 this reproduces the observed window (observedStepNs() × windowSteps()).
  double replayWindowNs(uint64_t mask) const;
  /// The steady-state mean step with those fixes: the window's steps replayed back to back
  /// several times, measured over the last pass (what a trainer's mean step measures).
  double replayStepNs(uint64_t mask, ReplayScenario scenario = {}) const;
  /// replayStepNs of `count` masks into steps[0..count): the same figures, several masks per
  /// pass over the program.
  void replayStepsNs(const uint64_t* masks, size_t count, ReplayScenario scenario,
                     double* steps) const;
  size_t fixCount() const;
  /// True when some fix has pessimistic factors that differ from its expected ones.
  bool hasWorstCase() const;
  /// The device work per step of the busiest queue (device, stream) in the window, as
  /// recorded: no replay that keeps op durations can run a step shorter. A steady state below
  /// it means the replay lost work (launched before the window, say) and cannot be trusted.
  double deviceFloorStepNs() const { return device_floor_ns_; }
  bool takesOverheadOut() const {
    return overhead_.per_event_ns > 0 || overhead_.per_python_frame_ns > 0;
  }

 private:
  std::unique_ptr<ReplayProgram> program_;
  ProfilerOverhead overhead_;
  double device_floor_ns_ = 0;
};

/// The saving of each fix and of all of them together, per step.
struct FixSavings {
  /// Per fix, in the order given: its share of "fix all" (Shapley value; the shares add up
  /// to all_ns), and what it would save if it were the only fix.
  std::vector<double> share_ns;
  std::vector<double> share_low_ns;  // the lowest share over the pessimistic scenarios
  std::vector<double> alone_ns;
  std::vector<double> alone_low_ns;  // the same for alone
  double all_ns = 0;                 // replayed step − replayed step with every fix applied
  double all_low_ns = 0;  // the low end: pessimistic factors, or the profiler's cost left in
  double step_ns = 0;     // replayed steady-state step without fixes, the profiler's cost taken out
  double recorded_step_ns = 0;  // the same with the profiler's cost left in
  bool exact_shares = true;     // false: shares estimated from sampled fix orders (many fixes)
};

/// Replays every subset of the fixes (up to kExactShapleyFixes fixes; sampled orders beyond),
/// on up to `threads` threads (0: one per core); the figures do not depend on the count.
FixSavings computeFixSavings(const StepReplay& replay, int threads = 0);
inline constexpr size_t kExactShapleyFixes = 10;

}  // namespace steplint::analyzer
