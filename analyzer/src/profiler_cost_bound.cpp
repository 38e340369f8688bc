#include "profiler_cost_bound.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;

/// The step range, whatever its children: its self time is the loop's own Python.
bool isStepName(std::string_view name) { return name.substr(0, 13) == "ProfilerStep#"; }

/// Ranges that torch opens around Python code (legacy traces write them as plain ops).
bool isTorchPythonRange(std::string_view name) {
  return isDataLoaderName(name) || name.substr(0, 10) == "Optimizer.";
}

/// 1 µs when every range on the track starts and lasts whole microseconds (the legacy
/// profiler's export), else 1 ns.
int64_t timestampTick(const trace::TraceModel& model, const trace::Track& track) {
  for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
    const Event& e = model.events[i];
    if (trace::isCpuRange(e.kind) && (e.start_ns % 1000 != 0 || e.dur_ns % 1000 != 0)) return 1;
  }
  return 1000;
}

/// A recorded host event whose children are being visited.
struct OpenParent {
  uint32_t index = 0;
  int64_t child_ns = 0;  // the direct children's durations within it, every kind
  unsigned ops = 0, frames = 0;
  int64_t shortest = INT64_MAX;  // the shortest recorded direct child
  bool inside = true;            // every direct child lies within the parent, to a tick
};

class BoundCollector {
 public:
  explicit BoundCollector(const trace::TraceModel& model)
      : model_(model), steps_(model, isStepName), python_ranges_(model, isTorchPythonRange) {}

  void track(const trace::Track& track) {
    stack_.clear();
    tick_ = timestampTick(model_, track);
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
    const int64_t from = std::max(child.start_ns, parent.start_ns);
    const int64_t to = std::min(child.end_ns(), parent.end_ns());
    p.child_ns += std::max<int64_t>(0, to - from);
    // Rounded timestamps let a child stick out by a tick; more is a clock quirk.
    p.inside &=
        parent.start_ns - child.start_ns <= tick_ && child.end_ns() - parent.end_ns() <= tick_;
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
    if (selfTimeUnrecorded(parent, p)) return;
    const double self = static_cast<double>(parent.dur_ns - p.child_ns);
    const double bound = self / recorded + static_cast<double>(p.shortest);
    (p.frames > 0 ? python_bounds_ : op_bounds_).push_back(bound);
  }

  /// A range around Python code whose recorded children are all ops: its self time is that
  /// code, which the trace does not record, far more than the children's recording.
  bool selfTimeUnrecorded(const Event& parent, const OpenParent& p) {
    if (steps_(parent.name)) return true;
    return p.frames == 0 &&
           (parent.kind == EventKind::kUserAnnotation || python_ranges_(parent.name));
  }

  static ProfilerCostBound lowQuantile(std::vector<double>& bounds) {
    ProfilerCostBound out;
    out.parents = bounds.size();
    if (bounds.empty()) return out;
    // Every parent's bound holds; the rank only guards against parents with clipped
    // timestamps: the lowest but one, so that one such parent cannot pull the estimate down,
    // and the 5th percentile once that is higher. It grows with the count, with no switch at
    // some count: the loosest bound below 16 parents had taken a 3-step trace from 273 ns per
    // op (its 4 steps) to the 2 µs default, 63 % of its step.
    const auto k = std::max<size_t>(bounds.size() > 1 ? 1 : 0,
                                    static_cast<size_t>(static_cast<double>(bounds.size() - 1) *
                                                        ProfilerCostBounds::kQuantile));
    std::nth_element(bounds.begin(), bounds.begin() + static_cast<std::ptrdiff_t>(k), bounds.end());
    out.ns = bounds[k];
    return out;
  }

  const trace::TraceModel& model_;
  NameMemo<bool (*)(std::string_view)> steps_, python_ranges_;
  int64_t tick_ = 1;
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
