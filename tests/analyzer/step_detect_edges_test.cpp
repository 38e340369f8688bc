// Step detection (step_detect.h) at the loop's edges: when the last iteration counts as
// complete, and where the first one begins when setup comes before the loop.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "steplint/analyzer/step_detect.h"
#include "test_model.h"

using namespace steplint;
using test::TestTrace;

namespace {

struct Loop {
  bool loader = false;     // a DataLoader __next__ starts each iteration
  bool wrapped = false;    // record_function("my_step") around each iteration
  double pause_us = 0;     // unrecorded Python after the optimizer (logging, a sleep)
  double first_to_us = 5;  // the first iteration's batch.to(): CUDA's lazy start-up
  double setup_us = 0;     // a dataset built before the loop (aten::randn), then the model
  double wait_us = 1;      // idle between the model and the first batch's first op
};

// One iteration: batch, forward, 4 backward nodes, optimizer, loss.item(). Returns its end.
double iteration(TestTrace& t, double at, const Loop& loop, bool first) {
  const double start = at;
  if (loop.loader) {
    t.op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", at, 30);
    at += 32;
  } else {
    t.op("aten::slice", at, 5);
    at += 6;
  }
  const double to_us = first ? loop.first_to_us : 5;
  t.op("aten::to", at, to_us);
  at += to_us + 1;
  for (const char* name : {"aten::addmm", "aten::relu", "aten::addmm", "aten::mse_loss"}) {
    t.op(name, at, 10);
    at += 12;
  }
  for (int node = 0; node < 4; ++node, at += 11) {
    t.op("autograd::engine::evaluate_function: AddmmBackward0", at, 10);
    t.op("AddmmBackward0", at + 1, 8);
  }
  at += 5;
  t.annotation("Optimizer.step#SGD.step", at, 25);
  t.op("aten::add_", at + 2, 10);
  t.op("aten::add_", at + 13, 10);
  t.op("aten::item", at + 26, 10);
  at += 36;
  if (loop.wrapped) t.annotation("my_step", start, at - start);
  return at + loop.pause_us;
}

// Iteration start times, then the end of the last iteration's recorded work.
std::vector<double> build(TestTrace& t, const Loop& loop, int iterations) {
  double at = 0;
  if (loop.setup_us > 0) {
    t.op("aten::randn", 0, loop.setup_us);
    t.op("aten::normal_", 1, loop.setup_us - 2);
    at = loop.setup_us + 20;
    for (const char* name : {"aten::empty", "aten::uniform_", "aten::empty", "aten::uniform_"}) {
      t.op(name, at + 2, 5);
      at += 7;
    }
    at += loop.wait_us;  // after the model's last op
  }
  std::vector<double> starts;
  for (int i = 0; i < iterations; ++i) {
    starts.push_back(at);
    at = iteration(t, at, loop, i == 0);
  }
  starts.push_back(at - loop.pause_us);
  t.finalize();
  return starts;
}

int64_t ns(double us) { return static_cast<int64_t>(std::llround(us * 1000)); }

}  // namespace

TEST_CASE("a last iteration followed by no recorded Python is complete, not cut",
          "[steps][detect]") {
  // The last iteration's post-backward work was compared with the interior ones' spans to
  // the next iteration, which hold the unrecorded Python after the optimizer; it always lost
  // ("cut by the trace's end", h7 D4). Its recorded work is compared now.
  Loop loop;
  SECTION("0.5 ms of logging after each optimizer step") {
    loop.loader = true;
    loop.pause_us = 500;
  }
  SECTION("a record_function range around each iteration") { loop.wrapped = true; }
  TestTrace t;
  const std::vector<double> starts = build(t, loop, 6);
  const analyzer::DetectedSteps d = analyzer::detectSteps(t.model);
  REQUIRE(d.steps.size() == 6);
  CHECK_FALSE(d.last_cut);
  CHECK_FALSE(d.first_cut);
  for (size_t i = 0; i < 6; ++i) {
    INFO("step " << i);
    CHECK(d.steps[i].host_start_ns == ns(starts[i]));
  }
  CHECK(d.steps.back().host_end_ns == ns(starts[6]));
  CHECK(d.note.rfind("6 steps detected from 6 backward passes; iterations of thread", 0) == 0);
}

TEST_CASE("setup before a loop without a DataLoader is not the first step's", "[steps][detect]") {
  // Step 0 began at the program's first op: 20 ms of building the dataset became its "input
  // wait" (h6 D1). It now reaches back no further than the longest interior pre-backward
  // phase, in time or in ops.
  Loop loop;
  loop.setup_us = 20000;
  double wait_us = 0;  // of the first iteration, before its first op
  SECTION("a steady first iteration") {}
  SECTION("a first iteration slowed by lazy start-up") { loop.first_to_us = 300000; }
  SECTION("a first batch that waits for loader threads starting up") {
    // As between passes, a wide idle gap before the first op is a wait, and the step starts
    // with it (a recorded LibTorch trainer with 2 loader threads: 24.5 ms in step 0).
    wait_us = loop.wait_us = 25000;
  }
  TestTrace t;
  const std::vector<double> starts = build(t, loop, 5);
  const analyzer::DetectedSteps d = analyzer::detectSteps(t.model);
  REQUIRE(d.steps.size() == 5);
  CHECK_FALSE(d.first_cut);
  CHECK(d.steps[0].host_start_ns == ns(starts[0] - wait_us));
  CHECK(d.steps[0].host_end_ns == ns(starts[1]));
}

TEST_CASE("a first iteration with its DataLoader call starts there, setup or not",
          "[steps][detect]") {
  Loop loop;
  loop.loader = true;
  loop.setup_us = 20000;
  loop.first_to_us = 300000;
  TestTrace t;
  const std::vector<double> starts = build(t, loop, 5);
  const analyzer::DetectedSteps d = analyzer::detectSteps(t.model);
  REQUIRE(d.steps.size() == 5);
  CHECK(d.steps[0].host_start_ns == ns(starts[0]));
}
