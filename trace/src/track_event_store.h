// The events of an import kept per track while batches are merged, so that finalize() gets
// them grouped by track, in the order they were added, without a sort by track.
//
// Why not one vector in input order, grouped at the end: grouping is either a copy into a
// second array of the same size (fresh pages, faulted in on one thread after the parser
// threads have finished: ~0.35 s of a 1 GB import on a VM, and the events in memory twice) or
// an in-place permutation that loses the input order, which a sort must then restore. Here the
// only copy is the final one into TraceModel::events, and each block is unmapped as soon as it
// is copied, so the pages that copy faults in are the ones just given back.
#pragma once

#include <cstddef>
#include <new>
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
  /// the store empty. With `threads` > 1 a second thread faults in `out`'s pages just ahead of
  /// the copy (page_faulter.h).
  void moveInto(std::vector<Event>& out, std::vector<Track>& tracks, int threads = 1);

 private:
  // Up to 64 Ki events (4 MiB) in a mapping of its own. Not a std::vector: glibc serves a
  // 4 MiB request from its heap once its mmap threshold has risen past that (it rises with
  // every large free, the gzip reader's among them), and heap memory freed by another thread's
  // arena stays in the process: the events were then in memory twice at the peak (+140 MiB
  // on a 1 GB gzip trace).
  class Block {
   public:
    static constexpr size_t kMaxEvents = size_t{1} << 16;
    explicit Block(size_t events);
    ~Block();
    Block(Block&& other) noexcept;
    Block& operator=(Block&&) = delete;
    Block(const Block&) = delete;
    bool full() const { return size_ == capacity_; }
    size_t capacity() const { return capacity_; }
    /// Gives the pages back to the kernel and empties the block; the mapping stays.
    void discardPages();
    void push(const Event& e) { new (data_ + size_++) Event(e); }  // trivially destructible
    const Event* begin() const { return data_; }
    const Event* end() const { return data_ + size_; }

   private:
    Event* data_;
    size_t capacity_;
    size_t size_ = 0;
  };
  // A track's first events go into a vector that grows from nothing, so that inputs with many
  // tiny tracks (or hostile ones, one tid per event) map no block per track; its further events
  // into blocks that double up to 4 MiB, so a block is never more than twice the events it
  // follows and nothing is copied or faulted in twice as the vector would when it regrows (a
  // vector grown to 4 MiB had faulted in 8 MiB, ~1.6 % of a 1 GB import on one core).
  static constexpr size_t kFirstEvents = size_t{1} << 10;
  struct TrackEvents {
    std::vector<Event> first;
    std::vector<Block> more;
  };
  std::vector<TrackEvents> tracks_;
  size_t size_ = 0;
};

}  // namespace steplint::trace
