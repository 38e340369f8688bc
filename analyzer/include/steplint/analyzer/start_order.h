// The events that a predicate keeps, from every track, visited in one start order without
// collecting them. Each track's events are already in start order (TraceModel::events), so a
// heap of one cursor per track merges them: the memory is a cursor per track, where gathering
// the kept events first and sorting them took tens of MB per GB of trace (a device's kernels
// for the union of their intervals, their start and end points for a sweep).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// Calls fn(const trace::Event&) for each event with keep(event), in start order; events that
/// start together come in event order (by track, then as the track has them).
template <typename Keep, typename Fn>
void forEachInStartOrder(const trace::TraceModel& model, Keep&& keep, Fn&& fn) {
  struct Cursor {
    int64_t start;
    uint32_t at;    // the kept event this cursor shows
    uint32_t last;  // the end of its track's events
  };
  const auto& events = model.events;
  const auto next_kept = [&](uint32_t i, uint32_t last) {
    while (i < last && !keep(events[i])) ++i;
    return i;
  };
  // A min-heap on (start, event index): std::*_heap keep the largest on top, so "after" is less.
  const auto after = [](const Cursor& a, const Cursor& b) {
    return a.start != b.start ? a.start > b.start : a.at > b.at;
  };
  std::vector<Cursor> heap;
  for (const trace::Track& track : model.tracks) {
    const uint32_t last = track.first_event + track.event_count;
    if (const uint32_t i = next_kept(track.first_event, last); i < last)
      heap.push_back({events[i].start_ns, i, last});
  }
  std::make_heap(heap.begin(), heap.end(), after);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), after);
    Cursor c = heap.back();
    heap.pop_back();
    // The cursor on top keeps the lead for a run of events (a stream's kernels between two
    // copies on another): no heap operation until another track's next event comes first.
    for (;;) {
      fn(events[c.at]);
      c.at = next_kept(c.at + 1, c.last);
      if (c.at >= c.last) break;
      c.start = events[c.at].start_ns;
      if (!heap.empty() && after(c, heap.front())) {
        heap.push_back(c);
        std::push_heap(heap.begin(), heap.end(), after);
        break;
      }
    }
  }
}

}  // namespace steplint::analyzer
