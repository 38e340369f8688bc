// Per-thread event buffers: one producer (the owning thread), one consumer (the writer).
//
// Each thread appends variable-length records into a list of chunks (64 KiB, or one record's
// size when larger). A record is published with a release store of the chunk's `committed`;
// a full chunk is sealed by linking the next one (release store of `next`), after its last
// commit. The consumer reads [read, committed) with acquire loads, and frees a chunk once it is
// sealed and fully read, so the append path takes no lock:
//
//   producer: write bytes -> committed.store(end, release) ... chunk full -> next.store(c, release)
//   consumer: n = next.load(acquire); end = committed.load(acquire); read up to end;
//             if n != nullptr and everything read: free chunk, continue with n
//
// Memory is bounded by one global byte budget charged per chunk; when it is exhausted events
// are dropped and counted per thread. A thread registers once (global mutex) and retires in a
// thread_local destructor; the consumer frees a retired buffer after draining it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "recorder.h"

namespace steplint::collector {

struct ThreadInfo {
  int64_t tid = 0;   // OS tid
  std::string name;  // pthread name at registration ("" when unknown)
};

class ThreadBuffer;

/// Process-wide registry of thread buffers (a leaked singleton: usable from atexit handlers
/// and thread_local destructors in any order).
class ThreadBuffers {
 public:
  static constexpr size_t kChunkBytes = size_t{64} << 10;
  using Visitor = std::function<void(const HostEvent& event, const ThreadInfo& thread)>;

  static ThreadBuffers& instance();
  /// In a forked child, on its one thread: a fresh registry; the parent's (its threads' chunks,
  /// its mutex) is leaked. Throws std::bad_alloc.
  static void resetInForkedChild();

  /// Byte budget for all chunks together (CollectorConfig::max_buffer_bytes).
  void setBudget(uint64_t max_bytes) noexcept;
  /// Appends to the calling thread's buffer; false when dropped (budget, or thread exiting).
  bool append(const HostEvent& event) noexcept;

  /// Consumer side: calls visit for every committed record, thread by thread in append order,
  /// frees drained chunks and retired buffers. One consumer at a time.
  void drain(const Visitor& visit);
  /// Drops every buffered record (events left from a previous session).
  void discardAll();
  /// Dropped events since the last call (sums and resets the per-thread counters).
  uint64_t takeDropped() noexcept;
  uint64_t bytesInUse() const noexcept { return used_bytes_.load(std::memory_order_relaxed); }

  // Used by ThreadBuffer (chunk allocation against the budget).
  bool reserve(size_t bytes) noexcept;
  void release(size_t bytes) noexcept;

 private:
  ThreadBuffers() = default;
  static std::atomic<ThreadBuffers*>& slot();
  ThreadBuffer* registerThread() noexcept;

  mutable std::mutex mutex_;  // guards buffers_; never taken by append()
  std::vector<ThreadBuffer*> buffers_;
  // drain()'s working lists (one consumer at a time), members so that a fork during a drain
  // leaves them reachable in the child (resetInForkedChild).
  std::vector<ThreadBuffer*> snapshot_;
  std::vector<ThreadBuffer*> finished_;
  std::atomic<uint64_t> budget_bytes_{uint64_t{256} << 20};
  std::atomic<uint64_t> used_bytes_{0};
  std::atomic<uint64_t> retired_dropped_{0};  // drop counts of buffers already freed
  // resetInForkedChild: the parent's registry and this thread's buffer in it, leaked, and kept
  // reachable so that leak checkers in the child do not count them.
  ThreadBuffers* parent_copy_ = nullptr;
  ThreadBuffer* parent_thread_buffer_ = nullptr;
};

}  // namespace steplint::collector
