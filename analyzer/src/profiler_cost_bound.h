// An upper bound on what torch.profiler spent per recorded host event, read off the trace's own
// nesting (docs/savings.md "Profiler overhead").
//
// Why a bound is needed: a torch.profiler trace does not say what its recording cost, and one
// fixed estimate per event fits operators (RecordFunction with Kineto's callbacks, ~1–2 µs) but
// not Python frames (with_stack=True), which the Python tracer logs as two words per call: on
// traces dense in frames, 2 µs each added up to more than the whole step (TraceLens' vLLM
// capture: 418 % of it), and the savings replay then had almost no host time left.
//
// The physics: recording a child costs time before its start timestamp and after its end
// timestamp, inside its parent but outside the child, and time between the two timestamps,
// inside the child. So for a parent P with k recorded children, per child
//   cost <= self(P) / k + the shortest child's duration,
// where self(P) is P's duration less its direct children's. Each dense parent gives such a
// bound; a low order statistic of them over the trace bounds the cost of that kind of event:
// the lowest but one, or with many parents the 5th percentile, a rank that grows with their
// count (no switch at some count: a 3-step cut of a trace must keep its 4 steps' estimate).
//
// Parents whose self time is mostly their own unrecorded code bound nothing useful and are
// left out: the step (`ProfilerStep#N`, the loop's Python), and ranges around Python code
// whose recorded children are all ops: user annotations (record_function) and torch's own
// Python-side ranges, which the legacy profiler writes as plain ops (the DataLoader's
// `__next__`: the collate function; `Optimizer.step#`: a loop over the parameters).
//
// Timestamps have a resolution: the legacy profiler's export writes whole microseconds, so a
// child may stick out of its parent by one tick; it counts, clipped to its parent.
#pragma once

#include <cstddef>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct ProfilerCostBound {
  double ns = -1;      // < 0: no dense parent to say anything
  size_t parents = 0;  // how many parents gave a bound
};

/// Bounds for the two sorts of recorded host event: RecordFunction ranges (CPU ops and
/// annotations) and Python frames. A parent counts for a sort when it has at least
/// kMinChildren recorded children, all of that sort, that lie within it.
struct ProfilerCostBounds {
  static constexpr unsigned kMinChildren = 8;
  // The rank taken: the 5th percentile, and never the lowest of two or more bounds, so that
  // one parent with clipped timestamps cannot pull the estimate down.
  static constexpr double kQuantile = 0.05;
  ProfilerCostBound op, python;
};

ProfilerCostBounds boundProfilerCost(const trace::TraceModel& model);

}  // namespace steplint::analyzer
