// The recorded host events on the replay's host timeline, by start time: each one inflated the
// timeline by the profiler's cost, which the replay takes out of the work it starts in, at
// the cost of its sort (profiler_overhead.h). Private to replay_build.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "host_threads.h"

namespace steplint::analyzer {

class RecordedStarts {
 public:
  /// The CPU ops, annotations and Python frames that start in [start, end) on the threads of
  /// the host timeline (host_threads.h).
  RecordedStarts(const trace::TraceModel& model, const StepResult& steps, int64_t start,
                 int64_t end) {
    const std::vector<char> serial = hostTimelineTracks(model, steps, start, end);
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
      if (!serial[t]) continue;
      const trace::Track& track = model.tracks[t];
      for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
        const trace::Event& e = model.events[i];
        if (trace::isCpuRange(e.kind) && e.start_ns >= start && e.start_ns < end)
          (e.kind == trace::EventKind::kPythonFunction ? frames_ : ranges_).push_back(e.start_ns);
      }
    }
    std::sort(ranges_.begin(), ranges_.end());
    std::sort(frames_.begin(), frames_.end());
  }

  /// RecordFunction ranges (ops, annotations) that start in [from, to).
  uint32_t rangesIn(int64_t from, int64_t to) const { return startsIn(ranges_, from, to); }
  /// Python frames that start in [from, to).
  uint32_t framesIn(int64_t from, int64_t to) const { return startsIn(frames_, from, to); }

 private:
  static uint32_t startsIn(const std::vector<int64_t>& starts, int64_t from, int64_t to) {
    const auto lo = std::lower_bound(starts.begin(), starts.end(), from);
    const auto hi = std::lower_bound(lo, starts.end(), to);
    return static_cast<uint32_t>(hi - lo);
  }

  std::vector<int64_t> ranges_, frames_;
};

}  // namespace steplint::analyzer
