// parallelFor (parallel_for.h): every task runs once on any thread count, and an exception from
// a task reaches the caller after all threads are done instead of ending the process.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "steplint/trace/parallel_for.h"

using steplint::trace::parallelFor;

TEST_CASE("parallelFor runs every task once on one thread and on several") {
  for (int threads : {0, 1, 2, 8}) {
    INFO(threads << " threads");
    std::vector<std::atomic<int>> runs(37);
    parallelFor(runs.size(), threads, [&](size_t i) { runs[i].fetch_add(1); });
    for (const auto& r : runs) CHECK(r.load() == 1);
  }
}

TEST_CASE("parallelFor hands a task's exception to the caller once every task has run") {
  for (int threads : {1, 4}) {
    INFO(threads << " threads");
    std::atomic<int> ran{0};
    const auto throwing = [&](size_t i) {
      ran.fetch_add(1);
      if (i == 3) throw std::runtime_error("task 3 failed");
    };
    CHECK_THROWS_WITH(parallelFor(10, threads, throwing), "task 3 failed");
    // In order on one thread the loop stops at the throw; on several the others still run.
    CHECK(ran.load() == (threads == 1 ? 4 : 10));
  }
}
