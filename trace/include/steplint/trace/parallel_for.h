// Runs independent tasks on a few threads: the finishing steps of an import (per-track sorting
// and nesting, the side tables, linking) and the independent parts of the analysis (summarize,
// the savings replays), which would otherwise leave every core but one idle
// (docs/benchmarks.md "Import scaling").
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace steplint::trace {

/// Calls task(i) for every i in [0, count), each once, on up to `threads` threads of which the
/// caller is one; returns when all are done. Indices are handed out in increasing order, so
/// callers put their largest tasks first. `threads` <= 1 runs them in order on the caller.
/// An exception from a task (std::bad_alloc on a huge trace) reaches the caller after every
/// thread has finished, as it would from a loop; the other tasks still run.
template <typename Task>
void parallelFor(size_t count, int threads, const Task& task) {
  const size_t workers = std::min(count, static_cast<size_t>(std::max(threads, 1)));
  if (workers <= 1) {
    for (size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  const auto work = [&] {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      try {
        task(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace steplint::trace
