// Step windows: the steps cut into groups of consecutive steps, each group inside a time window
// that no other group's step reaches. The breakdown and the attribution measure interval sets
// inside each step only, and a set's length inside a step depends only on the set inside the
// step; every set operation they use (union, intersection, difference) commutes with clipping
// to a window. So they can build their sets window by window from the events that overlap the
// window, clipped to it, and get the same numbers with temporaries the size of one window's
// events instead of the whole trace's (about 60 MB at once on a 1 GB trace, when each set
// spanned the trace).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// How many windows the breakdown and the attribution cut the steps into: temporaries ~1/32 of
/// the trace's, and few enough that each window's fixed cost (a look at every track) is nothing.
inline constexpr size_t kStepWindowCount = 32;

struct StepWindow {
  int64_t start = 0;  // [start, end) holds every step of the group, and no other step
  int64_t end = 0;
  std::vector<size_t> steps;  // indexes into the steps they were cut from, in start order
};

/// At most about `max_windows` windows, disjoint and in time order. Steps that overlap, or that
/// a step's device work reaches into, share a window.
std::vector<StepWindow> stepWindows(const std::vector<Step>& steps, size_t max_windows);

/// The events overlapping each window in turn (start < window end, end > window start): one pass
/// over the events for all windows, plus another look at the events that run on past a window's
/// end (a thread's outer ranges, long device ops) when the next window comes.
class WindowEvents {
 public:
  explicit WindowEvents(const trace::TraceModel& model);

  /// Calls fn(const trace::Event&) for each event overlapping [start, end). Windows must come in
  /// time order without overlapping, as stepWindows makes them.
  template <typename Fn>
  void forEach(int64_t start, int64_t end, Fn&& fn);

 private:
  const trace::TraceModel& model_;
  std::vector<uint32_t> next_;   // per track: its first event not yet looked at
  std::vector<uint32_t> carry_;  // events looked at that end after the last window's end
};

/// [start, end) clipped to [from, to); empty (end <= start) when they do not overlap.
inline Interval clipTo(int64_t start, int64_t end, int64_t from, int64_t to) {
  return {start > from ? start : from, end < to ? end : to};
}

template <typename Fn>
void WindowEvents::forEach(int64_t start, int64_t end, Fn&& fn) {
  const auto& events = model_.events;
  size_t kept = 0;
  for (uint32_t i : carry_) {
    const trace::Event& e = events[i];
    if (e.end_ns() <= start) continue;  // ended between the windows
    fn(e);
    if (e.end_ns() > end) carry_[kept++] = i;
  }
  carry_.resize(kept);
  for (size_t t = 0; t < model_.tracks.size(); ++t) {
    const trace::Track& track = model_.tracks[t];
    uint32_t& i = next_[t];
    // A track's events are in start order (TraceModel::events).
    for (const uint32_t last = track.first_event + track.event_count;
         i < last && events[i].start_ns < end; ++i) {
      const trace::Event& e = events[i];
      if (e.end_ns() <= start) continue;
      fn(e);
      if (e.end_ns() > end) carry_.push_back(i);
    }
  }
}

}  // namespace steplint::analyzer
