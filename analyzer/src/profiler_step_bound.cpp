#include "profiler_step_bound.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "text_table.h"

namespace steplint::analyzer {
namespace {

using trace::Event;

/// One thread's recorded events in one step.
struct ThreadStep {
  int64_t ops = 0, frames = 0;   // every recorded event, by sort
  int64_t covered_ns = 0;        // their durations, clipped to the step
  int64_t parents_ns = 0;        // the same for those with a recorded child
  int64_t shortest = INT64_MAX;  // the shortest of them, clipped
  bool nested = true;            // no event overlaps a sibling (kFlagOverlapsSibling)
};

int64_t clippedDuration(const Step& step, const Event& e) {
  return std::max<int64_t>(0, std::min(e.end_ns(), step.end_ns) - e.start_ns);
}

void count(const Step& step, const Event& e, ThreadStep& c) {
  (e.kind == trace::EventKind::kPythonFunction ? c.frames : c.ops) += 1;
  const int64_t dur = clippedDuration(step, e);
  c.covered_ns += dur;
  c.shortest = std::min(c.shortest, dur);
  c.nested &= (e.flags & trace::kFlagOverlapsSibling) == 0;
}

/// The largest scale of `cost` that one thread's step allows (>= 1 when it does not bind).
double scaleFor(const ThreadStep& c, const Step& step, const ProfilerOverhead& cost) {
  const int64_t n = c.ops + c.frames;
  const int64_t duration = step.duration_ns();
  if (n == 0 || duration <= 0) return 1;
  const double demand = cost.per_event_ns * static_cast<double>(c.ops) +
                        cost.per_python_frame_ns * static_cast<double>(c.frames);
  double room = static_cast<double>(duration);
  // Outside the leaves: the time not inside any leaf event, where every event's recording
  // outside its own range happens (in its parent's self time or between top-level events).
  const int64_t leaves_ns = c.covered_ns - c.parents_ns;
  if (c.nested && leaves_ns >= 0 && leaves_ns <= duration)
    room = std::min(room, static_cast<double>(duration - leaves_ns) +
                              static_cast<double>(n) * static_cast<double>(c.shortest));
  return demand > room ? room / demand : 1;
}

/// Counts e's parent among its step's parents the first time one of its recorded children
/// is seen (children come after their parent on a track). A parent in no kept step is skipped.
void markParent(const trace::TraceModel& model, const StepResult& steps, const trace::Track& track,
                const Event& e, std::vector<uint8_t>& is_parent, std::vector<ThreadStep>& counts) {
  if (e.parent == trace::kNoIndex || e.parent < track.first_event) return;
  const Event& p = model.events[e.parent];
  uint8_t& marked = is_parent[e.parent - track.first_event];
  if (marked || !trace::isCpuRange(p.kind)) return;
  marked = 1;
  const size_t s = keptStepAt(steps, p.start_ns);
  if (s < steps.steps.size()) counts[s].parents_ns += clippedDuration(steps.steps[s], p);
}

}  // namespace

size_t keptStepAt(const StepResult& steps, int64_t t) {
  size_t hint = 0;
  return keptStepAt(steps, t, hint);
}

size_t keptStepAt(const StepResult& steps, int64_t t, size_t& hint) {
  const std::vector<Step>& v = steps.steps;
  // hint + 1 is where upper_bound lands when t lies in [v[hint].start, v[hint + 1].start).
  const bool same = hint < v.size() && v[hint].start_ns <= t &&
                    (hint + 1 == v.size() || t < v[hint + 1].start_ns);
  if (!same) {
    auto it = std::upper_bound(v.begin(), v.end(), t,
                               [](int64_t x, const Step& s) { return x < s.start_ns; });
    if (it == v.begin()) return v.size();
    hint = static_cast<size_t>(it - 1 - v.begin());
  }
  return t < v[hint].end_ns ? hint : v.size();
}

double stepTimeScale(const trace::TraceModel& model, const StepResult& steps,
                     const ProfilerOverhead& cost, std::string& why) {
  double scale = 1;
  std::vector<ThreadStep> counts(steps.steps.size());
  std::vector<size_t> touched;
  std::vector<uint8_t> is_parent;  // per event of the track: has a recorded child
  size_t hint = 0;
  for (const trace::Track& track : model.tracks) {
    is_parent.assign(track.event_count, 0);
    for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
      const Event& e = model.events[i];
      if (!trace::isCpuRange(e.kind)) continue;
      const size_t s = keptStepAt(steps, e.start_ns, hint);
      if (s == steps.steps.size()) continue;
      if (counts[s].ops + counts[s].frames == 0) touched.push_back(s);
      count(steps.steps[s], e, counts[s]);
      markParent(model, steps, track, e, is_parent, counts);
    }
    for (size_t s : touched) {
      const Step& step = steps.steps[s];
      const double here = scaleFor(counts[s], step, cost);
      if (here < scale) {
        scale = here;
        why = std::to_string(counts[s].ops + counts[s].frames) +
              " recorded events on one thread in step " + std::to_string(step.number) + " of " +
              formatMs(static_cast<double>(step.duration_ns())) + " ms";
      }
      counts[s] = {};
    }
    touched.clear();
  }
  return scale;
}

}  // namespace steplint::analyzer
