// The replayable program behind StepReplay (replay.h): built by replay_build.cpp, run by
// replay.cpp. Times are ns relative to nothing in particular (the trace clock); durations are
// doubles so that scaled durations keep their fractions.
#pragma once

#include <cstdint>
#include <vector>

#include "steplint/analyzer/replay.h"

namespace steplint::analyzer {

inline constexpr uint32_t kNoOp = UINT32_MAX;

/// One GPU op of the window, in launch order.
struct ReplayOp {
  double dur = 0;  // observed duration
  // Delays after each constraint: the op starts at the latest of launch + launch_delay, its
  // queue's previous op's end + queue_delay, and its dependency's end + dep_delay. The binding
  // constraint keeps its observed delay; the others get the trace's typical one.
  double launch_delay = 0;
  double queue_delay = 0;
  double dep_delay = 0;
  // >= 0: the op waited for something outside the program (replay_external_wait.h) and starts
  // no earlier than this long after the previous pass ended, as it did in the recording.
  double pinned = -1;
  uint32_t slot = 0;     // (device, stream) queue
  uint32_t dep = kNoOp;  // op on another stream it waited for (launched earlier), if any
  uint64_t mask = 0;     // fixes that shorten it
};

/// One step of the serial host timeline.
struct ReplayItem {
  enum Kind : uint8_t { kWork, kLaunch, kWait };
  Kind kind = kWork;
  uint32_t op = kNoOp;  // kLaunch: the op enqueued; kWait: the op waited for (or a pre-window op)
  uint64_t mask = 0;    // kWork: fixes that shrink it; kWait: fixes that remove the wait
  double dur = 0;       // kWork: observed duration; kWait: what is left when it no longer blocks
  double after = 0;     // kWait: observed time from the op's end to the call's return
  // kWork: recorded host events that start in it, each of which inflated it by the profiler's
  // cost: RecordFunction ranges (ops, annotations) and Python frames, which cost less.
  uint32_t recorded = 0;
  uint32_t recorded_frames = 0;
  double fixed_end = -1;  // kWait on an op that ran before the window: its (unchanging) end
};

/// Per fix: what remains of the host time, GPU op time and removed waits it touches.
struct Factors {
  std::vector<double> host;
  std::vector<double> device;
  std::vector<double> residual;  // of a wait it removes (the host factor: the call's own cost)
};

struct ReplayProgram {
  double start = 0;               // window start (the first kept step's start)
  size_t steps = 0;               // kept steps in the window
  double observed = 0;            // observed window length (same formula as the replay)
  std::vector<ReplayItem> items;  // host timeline, in time order
  std::vector<ReplayOp> ops;      // window ops, indexed by ReplayItem::op
  std::vector<double> slot_free;  // per queue: when the ops before the window left it free
  Factors point;                  // per fix: the fixes' expected effect
  Factors worst;                  // per fix: their pessimistic effect
};

/// Builds the program of `steps`' kept steps [first, last) (replay_build.cpp).
ReplayProgram buildReplayProgram(const trace::TraceModel& model, const StepResult& steps,
                                 size_t first, size_t last, const std::vector<FixEffect>& fixes);

/// How many items buildReplayProgram would make (its items.size()), at a fraction of the memory.
size_t countReplayItems(const trace::TraceModel& model, const StepResult& steps, size_t first,
                        size_t last, const std::vector<FixEffect>& fixes);

/// Runs the program `repetitions` times back to back with the fixes in `masks[k]` applied, for
/// each of the `count` masks at once; ends[k * repetitions + r] is when pass r of mask k
/// completed (its host timeline and its GPU work) (replay.cpp). Each mask's arithmetic is the
/// same, in the same order, as if it ran alone. `overhead`: taken out of each work item per
/// recorded event in it, by sort (zeros: as recorded).
void runReplays(const ReplayProgram& program, const Factors& factors, const uint64_t* masks,
                size_t count, int repetitions, const ProfilerOverhead& overhead, double* ends);

}  // namespace steplint::analyzer
