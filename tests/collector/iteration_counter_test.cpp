// Live iteration boundaries for trainers without step markers (iteration_counter.h).
#include <catch2/catch.hpp>

#include "iteration_counter.h"

using steplint::collector::IterationCounter;

namespace {
constexpr uint64_t kMain = 1, kWorker = 2, kAutograd = 3;
}

TEST_CASE("iterations: the main thread's first top-level op after a backward pass starts one") {
  IterationCounter c;
  int boundaries = 0;
  for (int iteration = 0; iteration < 3; ++iteration) {
    boundaries += c.onOpStart(kWorker, false, 0, 0);  // a loader worker's op: never
    boundaries += c.onOpStart(kMain, false, 0, 0);    // forward: aten::linear
    boundaries += c.onOpStart(kMain, false, 0, 1);    //   aten::addmm
    // backward on the autograd device thread: the engine range (no forward thread), the node
    boundaries += c.onOpStart(
        kAutograd,
        IterationCounter::isBackwardOp("autograd::engine::evaluate_function: MmBackward0", false),
        0, 0);
    boundaries += c.onOpStart(kAutograd, true, kMain, 1);
    boundaries += c.onOpStart(kAutograd, false, 0, 2);  // aten::mm inside the node
    boundaries += c.onOpStart(kWorker, false, 0, 0);    // a worker after backward: not main
    boundaries += c.onOpStart(kMain, false, 0, 1);      // nested on main: not top level
    CHECK(c.onOpStart(kMain, false, 0, 0));             // optimizer.step(): the boundary
    boundaries += c.onOpStart(kMain, false, 0, 0);      // zero_grad: the same iteration
  }
  CHECK(boundaries == 0);
}

TEST_CASE("iterations: CPU backward runs on the main thread without ending the iteration") {
  IterationCounter c;
  // On the CPU the engine's ranges run at depth 0 on the calling thread itself.
  CHECK_FALSE(c.onOpStart(kMain, false, 0, 0));
  for (int node = 0; node < 3; ++node) {
    CHECK_FALSE(c.onOpStart(kMain,
                            IterationCounter::isBackwardOp(
                                "autograd::engine::evaluate_function: AddmmBackward0", false),
                            0, 0));
    CHECK_FALSE(c.onOpStart(kMain, true, kMain, 1));
  }
  CHECK(c.onOpStart(kMain, false, 0, 0));
  CHECK_FALSE(IterationCounter::isBackwardOp("aten::add_", false));
  c.reset();
  CHECK_FALSE(c.onOpStart(kMain, false, 0, 0));  // reset forgets a pending backward
}
