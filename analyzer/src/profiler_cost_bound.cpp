#include "profiler_cost_bound.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;

/// A recorded host event whose children are being visited.
struct OpenParent {
  uint32_t index = 0;
  int64_t child_ns = 0;  // the direct children's durations, every kind
  unsigned ops = 0, frames = 0;
  int64_t shortest = INT64_MAX;  // the shortest recorded direct child
  bool inside = true;            // every direct child lies within the parent
};

class BoundCollector {
 public:
  explicit BoundCollector(const trace::TraceModel& model) : model_(model) {}

  void track(const trace::Track& track) {
    stack_.clear();
    for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
      const Event& e = model_.events[i];
      // Events come in start order after their parents: whatever is open and not e's parent
      // has ended before e.
      while (!stack_.empty() && stack_.back().index != e.parent) close();
      if (!stack_.empty()) addChild(stack_.back(), e);
      if (trace::isCpuRange(e.kind)) stack_.push_back({i});
    }
    while (!stack_.empty()) close();
  }

  ProfilerCostBounds bounds() {
    ProfilerCostBounds out;
    out.op = lowQuantile(op_bounds_);
    out.python = lowQuantile(python_bounds_);
    return out;
  }

 private:
  void addChild(OpenParent& p, const Event& child) {
    const Event& parent = model_.events[p.index];
    p.child_ns += child.dur_ns;
    p.inside &= child.start_ns >= parent.start_ns && child.end_ns() <= parent.end_ns();
    if (!trace::isCpuRange(child.kind)) return;
    (child.kind == EventKind::kPythonFunction ? p.frames : p.ops) += 1;
    p.shortest = std::min(p.shortest, child.dur_ns);
  }

  void close() {
    const OpenParent p = stack_.back();
    stack_.pop_back();
    const unsigned recorded = p.ops + p.frames;
    // Parents with children of both sorts would bound a mix of two costs: left out.
    if (recorded < ProfilerCostBounds::kMinChildren || (p.ops > 0 && p.frames > 0)) return;
    const Event& parent = model_.events[p.index];
    // Children that overlap each other or stick out (clock quirks) say nothing about self time.
    if (!p.inside || p.child_ns > parent.dur_ns) return;
    const double self = static_cast<double>(parent.dur_ns - p.child_ns);
    const double bound = self / recorded + static_cast<double>(p.shortest);
    (p.frames > 0 ? python_bounds_ : op_bounds_).push_back(bound);
  }

  static ProfilerCostBound lowQuantile(std::vector<double>& bounds) {
    ProfilerCostBound out;
    out.parents = bounds.size();
    if (bounds.empty()) return out;
    // Every parent's bound holds; the low quantile only guards against a few parents with
    // clipped timestamps. Too few for it: the loosest of them, which one such parent cannot
    // pull down (traces of a few annotations over many tiny ops have no 16 dense callers).
    if (bounds.size() < ProfilerCostBounds::kMinParents) {
      out.ns = *std::max_element(bounds.begin(), bounds.end());
      return out;
    }
    const auto k =
        static_cast<size_t>(static_cast<double>(bounds.size() - 1) * ProfilerCostBounds::kQuantile);
    std::nth_element(bounds.begin(), bounds.begin() + static_cast<std::ptrdiff_t>(k), bounds.end());
    out.ns = bounds[k];
    return out;
  }

  const trace::TraceModel& model_;
  std::vector<OpenParent> stack_;
  std::vector<double> op_bounds_, python_bounds_;
};

}  // namespace

ProfilerCostBounds boundProfilerCost(const trace::TraceModel& model) {
  BoundCollector collector(model);
  for (const trace::Track& track : model.tracks) collector.track(track);
  return collector.bounds();
}

}  // namespace steplint::analyzer
