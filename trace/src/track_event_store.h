// The events of an import kept per track while batches are merged, so that finalize() gets
// them grouped by track, in the order they were added, without a sort by track.
//
// Why not one vector in input order, grouped at the end: grouping is either a copy into a
// second array of the same size (fresh pages, faulted in on one thread while the parser
// threads have finished: ~0.35 s of a 1 GB import on a VM, and the events in memory twice) or
// an in-place permutation that loses the input order, which a sort must then restore. Here the
// only copy is the final one into TraceModel::events, and each block is freed as soon as it is
// copied, so the pages that copy faults in are the ones just given back.
#pragma once

#include <cstddef>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::trace {

class TrackEventStore {
 public:
  /// Appends `e` to the events of track `e.track`.
  void append(const Event& e);
  size_t size() const { return size_; }

  /// Replaces `out` by every event appended, track after track in the order of `tracks`, in
  /// append order within a track, and sets each track's first_event and event_count. Leaves
  /// the store empty.
  void moveInto(std::vector<Event>& out, std::vector<Track>& tracks);

 private:
  // 64 Ki events (4 MiB): above glibc's mmap threshold, so a freed block goes straight back
  // to the kernel. A track's first block grows from nothing (vector doubling), so that inputs
  // with many tiny tracks (or hostile ones, one tid per event) reserve no 4 MiB per track.
  static constexpr size_t kBlockEvents = size_t{1} << 16;
  std::vector<std::vector<std::vector<Event>>> blocks_;  // per track, its blocks in order
  size_t size_ = 0;
};

}  // namespace steplint::trace
