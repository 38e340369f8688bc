// Step detection without ProfilerStep#N (step_detect.h): hand-built training loops with exact
// expected boundaries, and the ResNet-50 fixtures with their ProfilerStep ranges removed.
#include "steplint/analyzer/step_detect.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "fixture_trace.h"
#include "steplint/analyzer/attribution.h"
#include "steplint/analyzer/steps.h"
#include "test_model.h"

using namespace steplint;
using analyzer::computeSteps;
using analyzer::StepSource;
using test::TestTrace;

namespace {

constexpr int64_t kWorker = 2;
constexpr int64_t kAutogradThread = 3;

struct LoopShape {
  bool data_on_main = true;  // 0 workers: the main thread builds the batch
  int64_t backward_tid = TestTrace::kMainThread;
  double wait_us = 200;        // worker case: main thread idle until the batch arrives
  int stall_iteration = -1;    // this iteration's data takes 5000 µs instead
  int preempt_iteration = -1;  // this iteration's backward stops for 3000 µs halfway
  bool busy_workers = false;   // two loader threads decode right up to and through backward
  bool cut_last = false;       // the last iteration ends with its backward pass (trace end)
  bool jitter = false;  // every 10th backward pass pauses 2, 4, ... 64 µs after its 3rd node
};

constexpr int64_t kBusyWorkers[] = {4, 5};

// One libtorch iteration: data, zero_grad, forward, backward, SGD step, loss.item().
// Returns the time the iteration ends (loss.item() ends).
double iteration(TestTrace& t, double start, const LoopShape& shape, bool stall,
                 bool preempt = false, bool cut = false, double pause = 0) {
  double at = start;
  const double data = stall ? 5000 : (shape.data_on_main ? 30 : shape.wait_us);
  if (shape.data_on_main) {
    t.op("aten::stack", at, data);
    at += data + 5;
  } else {
    t.op("aten::randn", at + 1, data / 2, kWorker);
    t.op("aten::stack", at + 2 + data / 2, data / 4, kWorker);
    at += data;
  }
  for (int i = 0; i < 2; ++i, at += 6) t.op("aten::zero_", at, 5);
  for (const char* name : {"aten::addmm", "aten::relu", "aten::addmm", "aten::mse_loss"}) {
    t.op(name, at, 10);
    at += 12;
  }
  if (shape.busy_workers)  // each worker's op ends 1 µs before the pass, closer than main's
    for (const int64_t tid : kBusyWorkers) t.op("aten::decode_jpeg", at - 6, 5, tid);
  for (const char* node : {"MseLossBackward0", "AddmmBackward0", "torch::autograd::AccumulateGrad",
                           "ReluBackward0", "AddmmBackward0", "torch::autograd::AccumulateGrad"}) {
    if (shape.busy_workers)
      for (const int64_t tid : kBusyWorkers) t.op("aten::decode_jpeg", at + 2, 5, tid);
    t.op(std::string("autograd::engine::evaluate_function: ") + node, at, 10, shape.backward_tid);
    t.op(node, at + 1, 8, shape.backward_tid);
    at += 11;
    if (preempt && std::string_view(node) == "torch::autograd::AccumulateGrad") at += 3000;
    if (std::string_view(node) == "torch::autograd::AccumulateGrad") at += pause, pause = 0;
  }
  if (cut) return at;
  at += 5;
  for (const char* name : {"aten::mul_", "aten::add_", "aten::mul_", "aten::add_"}) {
    t.op(name, at, 10);
    at += 11;
  }
  t.op("aten::item", at, 20);
  t.op("aten::_local_scalar_dense", at + 1, 18);
  return at + 20;
}

std::vector<double> buildLoop(TestTrace& t, const LoopShape& shape, int iterations) {
  std::vector<double> starts;
  double at = 0;
  for (int i = 0; i < iterations; ++i) {
    starts.push_back(at);
    const double pause = shape.jitter && i % 10 == 5 ? std::ldexp(2.0, (i / 10) % 6) : 0;
    at = iteration(t, at, shape, i == shape.stall_iteration, i == shape.preempt_iteration,
                   shape.cut_last && i + 1 == iterations, pause);
  }
  starts.push_back(at);  // end of the last iteration
  t.finalize();
  return starts;
}

int64_t ns(double us) { return static_cast<int64_t>(std::llround(us * 1000)); }

}  // namespace

TEST_CASE("backward op names are recognised across torch versions", "[steps][detect]") {
  CHECK(analyzer::isBackwardOpName("autograd::engine::evaluate_function: AddmmBackward0"));
  CHECK(analyzer::isBackwardOpName("AddmmBackward0"));
  CHECK(analyzer::isBackwardOpName("CudnnConvolutionBackward"));  // torch 1.8
  CHECK(analyzer::isBackwardOpName("MeanBackward1"));
  CHECK(analyzer::isBackwardOpName("torch::autograd::AccumulateGrad"));
  CHECK_FALSE(analyzer::isBackwardOpName("aten::convolution_backward"));
  CHECK_FALSE(analyzer::isBackwardOpName("aten::addmm"));
  CHECK_FALSE(analyzer::isBackwardOpName("Backward"));
}

TEST_CASE("CPU loop with the data loader on the main thread: steps start at the data loading",
          "[steps][detect]") {
  TestTrace t;
  LoopShape shape;
  shape.stall_iteration = 2;  // one slow batch must not split or merge iterations
  const std::vector<double> starts = buildLoop(t, shape, 5);
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kDetected);
  REQUIRE(r.steps.size() == 5);
  for (size_t i = 0; i < 5; ++i) {
    INFO("step " << i);
    CHECK(r.steps[i].number == static_cast<int64_t>(i));
    CHECK(r.steps[i].host_start_ns == ns(starts[i]));
    CHECK(r.steps[i].host_end_ns == ns(starts[i + 1]));
  }
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes[0].find("5 steps detected from 5 backward passes") != std::string::npos);
}

TEST_CASE("worker-thread data loading: steps start where the main thread begins to wait",
          "[steps][detect]") {
  for (const int64_t backward_tid : {TestTrace::kMainThread, kAutogradThread}) {
    INFO("backward on thread " << backward_tid);
    TestTrace t;
    LoopShape shape;
    shape.data_on_main = false;
    shape.backward_tid = backward_tid;
    shape.stall_iteration = 3;
    const std::vector<double> starts = buildLoop(t, shape, 6);
    const auto r = computeSteps(t.model);
    REQUIRE(r.source == StepSource::kDetected);
    REQUIRE(r.steps.size() == 6);
    // The first wait is before any main-thread op, so step 0 starts at its zero_grad.
    CHECK(r.steps[0].host_start_ns == ns(starts[0] + shape.wait_us));
    for (size_t i = 1; i < 6; ++i) {
      INFO("step " << i);
      CHECK(r.steps[i].host_start_ns == ns(starts[i]));
      CHECK(r.steps[i - 1].host_end_ns == ns(starts[i]));
    }
    CHECK(r.steps[5].host_end_ns == ns(starts[6]));
  }
}

TEST_CASE(
    "detected steps name their training thread, which the attribution reads rather than a busier worker",
    "[steps][detect]") {
  TestTrace t;
  LoopShape shape;
  shape.data_on_main = false;
  double at = 0;
  for (int i = 0; i < 5; ++i) {
    const double start = at;
    at = iteration(t, at, shape, false);
    for (int k = 0; k < 40; ++k)
      t.op("aten::mul", start + 0.5 + k * 0.1, 0.05, kWorker);  // decoding samples
  }
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kDetected);
  REQUIRE(r.main_track != trace::kNoIndex);
  CHECK(t.model.tracks[r.main_track].tid == TestTrace::kMainThread);
  const analyzer::AttributionResult a = analyzer::computeAttribution(t.model, r);
  REQUIRE_FALSE(a.per_step.empty());
  // The main thread's ops of one iteration: zero_grad 2 x 5, forward 4 x 10, backward 6 x 10,
  // SGD 4 x 10 and loss.item() 20 µs; not the worker's 42 ops.
  CHECK(a.per_step[1].host_ns[static_cast<size_t>(analyzer::HostCause::kOps)] == ns(170));
}

TEST_CASE("loader threads busy through the backward passes are not taken for the training thread",
          "[steps][detect]") {
  // On a loaded machine the workers' last op before a pass often ends after the training
  // thread's (recorded: 2 loader workers, 1 in 8 runs of the slow sample); they decode through
  // the passes, which the thread that called backward() never does.
  TestTrace t;
  LoopShape shape;
  shape.data_on_main = false;
  shape.busy_workers = true;
  const std::vector<double> starts = buildLoop(t, shape, 6);
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kDetected);
  REQUIRE(r.steps.size() == 6);
  for (size_t i = 1; i < 6; ++i) {
    INFO("step " << i);
    CHECK(r.steps[i].host_start_ns == ns(starts[i]));
  }
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes[0].find("iterations of thread " + std::to_string(TestTrace::kMainThread)) !=
        std::string::npos);
}

TEST_CASE("a backward pass preempted halfway is one pass, not two", "[steps][detect]") {
  // On a busy 2-core machine a pass stopped for milliseconds: the split makes two half passes.
  TestTrace t;
  LoopShape shape;
  shape.preempt_iteration = 2;
  const std::vector<double> starts = buildLoop(t, shape, 6);
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kDetected);
  REQUIRE(r.steps.size() == 6);
  for (size_t i = 0; i < 6; ++i) {
    INFO("step " << i);
    CHECK(r.steps[i].host_start_ns == ns(starts[i]));
  }
}

TEST_CASE("hundreds of passes with pauses of every size inside some are still found",
          "[steps][detect]") {
  // Short passes on a busy machine: pauses of 2 to 64 µs inside every 10th pass fill the
  // sorted gaps between the 1 µs inside a pass and the ~100 µs between passes, so no two
  // neighbours are 3x apart. A 2000-step Python loop of 0.3 ms steps was one "whole trace"
  // step. The gaps' histogram still has its valley.
  TestTrace t;
  LoopShape shape;
  shape.jitter = true;
  const std::vector<double> starts = buildLoop(t, shape, 300);
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kDetected);
  REQUIRE(r.steps.size() == 300);
  for (size_t i = 0; i < r.steps.size(); i += 37) {
    INFO("step " << i);
    CHECK(r.steps[i].host_start_ns == ns(starts[i]));
  }
}

TEST_CASE("too few iterations or irregular backward passes fall back to the whole trace",
          "[steps][detect]") {
  SECTION("two iterations are one period") {
    TestTrace t;
    buildLoop(t, LoopShape{}, 2);
    const auto r = computeSteps(t.model);
    CHECK(r.source == StepSource::kWholeTrace);
    REQUIRE(r.steps.size() == 1);
    REQUIRE(r.notes.size() == 1);
    CHECK(r.notes[0].find("2 backward pass(es) found") != std::string::npos);
  }
  SECTION("a pass ten times larger than the others") {
    TestTrace t;
    double at = iteration(t, 0, LoopShape{}, false);
    at = iteration(t, at, LoopShape{}, false);
    for (int i = 0; i < 60; ++i, at += 11)
      t.op("autograd::engine::evaluate_function: AddmmBackward0", at + 100, 10);
    at = iteration(t, at + 200, LoopShape{}, false);
    iteration(t, at, LoopShape{}, false);
    t.finalize();
    const auto r = computeSteps(t.model);
    CHECK(r.source == StepSource::kWholeTrace);
    REQUIRE(r.notes.size() == 1);
    CHECK(r.notes[0].find("differ too much") != std::string::npos);
  }
}

TEST_CASE("detected steps never outnumber backward passes", "[steps][detect]") {
  for (int iterations = 3; iterations <= 7; ++iterations) {
    TestTrace t;
    LoopShape shape;
    shape.data_on_main = iterations % 2 == 0;
    buildLoop(t, shape, iterations);
    const analyzer::DetectedSteps d = analyzer::detectSteps(t.model);
    CHECK(d.backward_passes == iterations);
    CHECK(static_cast<int>(d.steps.size()) <= iterations);
    CHECK(static_cast<int>(d.steps.size()) >= iterations - 1);
  }
}

TEST_CASE("an iteration cut by the trace's end is left out, and the note says so",
          "[steps][detect]") {
  TestTrace t;
  LoopShape shape;
  shape.cut_last = true;  // the profiler stopped after the 6th backward, before its optimizer
  const std::vector<double> starts = buildLoop(t, shape, 6);
  const analyzer::DetectedSteps d = analyzer::detectSteps(t.model);
  CHECK(d.backward_passes == 6);
  REQUIRE(d.steps.size() == 5);
  CHECK(d.last_cut);
  CHECK_FALSE(d.first_cut);
  CHECK(d.steps.back().end_ns == ns(starts[5]));
  CHECK(d.note.find("5 steps detected from 6 backward passes (the last iteration, cut by the "
                    "trace's end, left out)") != std::string::npos);
}

TEST_CASE("whole-µs traces: children rounded to their backward node's end do not hide the loop",
          "[steps][detect]") {
  // torch.autograd.profiler without Kineto (torch 1.13 on CPU) writes whole µs, rounding each
  // start and length: a node's last children land at its end, 0 or 1 µs long, outside it
  // (recorded: evaluate_function: AccumulateGrad at 2153 for 1 µs, AccumulateGrad and
  // aten::detach at 2154 for 0). Taken as ops of their own, they started inside every pass and
  // the training thread was taken for a busy loader worker: one whole-trace step (h7 D1).
  TestTrace t;
  std::vector<double> starts;
  double at = 0;
  for (int i = 0; i < 6; ++i) {
    starts.push_back(at);
    t.op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", at, 30);
    t.op("aten::stack", at + 2, 20);
    at += 32;
    for (const char* name : {"aten::addmm", "aten::relu", "aten::addmm", "aten::mse_loss"}) {
      t.op(name, at, 10);
      at += 12;
    }
    for (int node = 0; node < 3; ++node, at += 9) {
      t.op("autograd::engine::evaluate_function: TBackward0", at, 4);
      t.op("TBackward0", at, 3);
      t.op("aten::t", at + 4, 1);  // 1 µs past its node
      t.op("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", at + 6, 1);
      for (const char* child : {"torch::autograd::AccumulateGrad", "aten::detach", "detach"})
        t.op(child, at + 7, 0);
    }
    t.op("Optimizer.step#SGD.step", at + 5, 20);
    t.op("aten::add_", at + 6, 10);
    t.op("aten::item", at + 26, 4);
    at += 30;
  }
  starts.push_back(at);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kDetected);
  REQUIRE(r.steps.size() == 6);
  for (size_t i = 0; i < 6; ++i) {
    INFO("step " << i);
    CHECK(r.steps[i].host_start_ns == ns(starts[i]));
    CHECK(r.steps[i].host_end_ns == ns(starts[i + 1]));
  }
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes[0].find("6 steps detected from 6 backward passes;") != std::string::npos);
}
