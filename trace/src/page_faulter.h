// Faults in the pages of a freshly reserved buffer on a second thread, just ahead of a copy
// into it. On a VM a first-touched page costs more than copying 4 KiB into it: grouping a 1 GB
// trace's 2.4 M events into TraceModel::events took 73 ms on one thread, mostly page faults,
// while the other core idled (docs/benchmarks.md "Import scaling"). MADV_POPULATE_WRITE
// (Linux 5.14) faults a range in without writing to it, so the two threads never write the same
// bytes. It stays at most kAhead bytes ahead of the copy, whose source blocks give their pages
// back behind it (TrackEventStore::Block::discardPages), so the peak memory is what it was. Where
// the kernel lacks it, it does nothing and the copy faults its own pages, as before. Kernel facts:
// docs/reference/toolchain.md §11.2.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>

namespace steplint::trace {

class PageFaulter {
 public:
  static constexpr size_t kWorthIt = size_t{32} << 20;  // below, a thread costs more
  static constexpr size_t kStep = size_t{2} << 20;
  static constexpr size_t kAhead = size_t{16} << 20;

  PageFaulter(void* buffer, size_t bytes)
      : thread_([this, buffer, bytes] { run(buffer, bytes); }) {}
  ~PageFaulter() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  PageFaulter(const PageFaulter&) = delete;
  PageFaulter& operator=(const PageFaulter&) = delete;

  /// The copy has filled the buffer's first `bytes`.
  void copiedUpTo(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      copied_ = bytes;
    }
    cv_.notify_all();
  }

 private:
  void run(void* buffer, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto base = reinterpret_cast<uintptr_t>(buffer);
    const uintptr_t first = (base + page - 1) & ~(page - 1), end = (base + bytes) & ~(page - 1);
    for (uintptr_t at = first; at < end; at += kStep) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || at - base < copied_ + kAhead; });
        if (stop_) return;
      }
      const size_t len = std::min<uintptr_t>(kStep, end - at);
      if (::madvise(reinterpret_cast<void*>(at), len, MADV_POPULATE_WRITE) != 0) return;
    }
#else
    (void)buffer;
    (void)bytes;
#endif
  }

  std::mutex mu_;
  std::condition_variable cv_;
  size_t copied_ = 0;
  bool stop_ = false;
  std::thread thread_;  // last: started once the members it reads exist
};

}  // namespace steplint::trace
