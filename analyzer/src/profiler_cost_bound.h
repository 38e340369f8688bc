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
// bound; a low quantile of them over the trace bounds the cost of that kind of event, or, with
// fewer than kMinParents dense parents, the loosest of their bounds.
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
  static constexpr size_t kMinParents = 16;  // for the quantile; fewer: the largest bound
  static constexpr double kQuantile = 0.05;  // robust to a few parents with clipped timestamps
  ProfilerCostBound op, python;
};

ProfilerCostBounds boundProfilerCost(const trace::TraceModel& model);

}  // namespace steplint::analyzer
