// Runs independent tasks on a few threads: the finishing steps of an import (per-track sorting
// and nesting, the side tables, linking) that would otherwise leave every core but one idle
// after the parse (docs/benchmarks.md "Import scaling").
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace steplint::trace {

/// Calls task(i) for every i in [0, count), each once, on up to `threads` threads of which the
/// caller is one; returns when all are done. Indices are handed out in increasing order, so
/// callers put their largest tasks first. `threads` <= 1 runs them in order on the caller.
template <typename Task>
void parallelFor(size_t count, int threads, const Task& task) {
  const size_t workers = std::min(count, static_cast<size_t>(std::max(threads, 1)));
  if (workers <= 1) {
    for (size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) task(i);
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace steplint::trace
