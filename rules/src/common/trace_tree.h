// Navigating the CPU-side nesting of a TraceModel: enclosing ops, nested events, and the
// device op each launch call caused.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::rules::common {

/// The innermost CPU range (cpu_op, user annotation, python function) enclosing `index` on
/// its track, or kNoIndex.
uint32_t enclosingCpuRange(const trace::TraceModel& model, uint32_t index);

/// The first ancestor of `index` (walking the parent chain, excluding `index`) for which
/// `pred(event)` holds, or kNoIndex.
template <typename Pred>
uint32_t findAncestor(const trace::TraceModel& model, uint32_t index, Pred&& pred) {
  for (uint32_t p = model.events[index].parent; p != trace::kNoIndex; p = model.events[p].parent)
    if (pred(model.events[p])) return p;
  return trace::kNoIndex;
}

/// Calls fn(i) for every event nested inside `index` on the same track, in time order.
/// Stops early when fn returns false.
template <typename Fn>
void forEachNested(const trace::TraceModel& model, uint32_t index, Fn&& fn) {
  const trace::Event& p = model.events[index];
  const trace::Track& track = model.tracks[p.track];
  const uint32_t end = track.first_event + track.event_count;
  for (uint32_t i = index + 1; i < end; ++i) {
    if (model.events[i].depth <= p.depth) break;
    if (!fn(i)) break;
  }
}

/// The outermost op of the chain of `aten::` cpu_ops that encloses `index` directly (e.g.
/// aten::to for a cudaMemcpyAsync under aten::to > aten::_to_copy > aten::copy_), or
/// kNoIndex when the innermost enclosing CPU range is not an aten op.
uint32_t outermostAtenOp(const trace::TraceModel& model, uint32_t index);

/// The CPU range just before `index` with the same parent on its track (its previous sibling),
/// or kNoIndex. The scan is capped: a sibling separated by thousands of nested events is not
/// "just before" for any pattern the rules look for.
uint32_t previousSibling(const trace::TraceModel& model, uint32_t index);

bool startsWith(std::string_view text, std::string_view prefix);

/// Launch call -> the first device op it caused (via the device op's link). A flat array
/// over all events: a hash map of millions of launch calls costs more to build than to use.
class LaunchIndex {
 public:
  explicit LaunchIndex(const trace::TraceModel& model);
  uint32_t deviceOpOf(uint32_t call) const {
    return call < op_of_call_.size() ? op_of_call_[call] : trace::kNoIndex;
  }

 private:
  std::vector<uint32_t> op_of_call_;  // per event; kNoIndex when it launched nothing
};

}  // namespace steplint::rules::common
