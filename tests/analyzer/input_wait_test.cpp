// The inferred input wait (input_wait.h, docs/analyses.md §2b) on hand-built loops whose
// input phase is known to the µs, and the attribution's inferred DataLoader cause.
#include "steplint/analyzer/input_wait.h"

#include <catch2/catch.hpp>

#include "steplint/analyzer/attribution.h"
#include "steplint/analyzer/steps.h"
#include "test_model.h"

using namespace steplint;
using analyzer::InputEnd;
using test::TestTrace;

namespace {

constexpr int64_t kWorker = 2;
constexpr double kStepUs = 1000;
constexpr double kLoaderUs = 400;

struct Shape {
  bool workers = false;            // the batch comes from a worker thread; the main thread idles
  bool leading_zero_grad = false;  // zero_grad, then the fetch
  bool zero_grad_before_forward = false;
  bool zero_grad_after_forward = false;  // `loss = model(x); opt.zero_grad()`
  bool copy_to_device = false;           // aten::to with a host-to-device memcpy after the fetch
  bool sequence_numbers = true;          // false: the legacy profiler, which records none
  bool loader_range = false;             // the loop marks the fetch with a DataLoader range
};

int64_t ns(double us) { return static_cast<int64_t>(us * 1000); }

uint32_t op(TestTrace& t, const Shape& shape, const std::string& name, double ts, double dur,
            int64_t seq) {
  return shape.sequence_numbers ? t.seqOp(name, ts, dur, seq) : t.op(name, ts, dur);
}

// ProfilerStep#n at n * 1000 µs: [zero_grad] fetch (400 µs) [to(cuda)] [zero_grad] forward
// (linear{t, addmm}, relu) [zero_grad] backward, optimizer step. Every op before the forward's
// first node (aten::t) records the sequence number s; addmm s + 1, relu s + 2.
void iteration(TestTrace& t, const Shape& shape, int n) {
  const double b = kStepUs * n;
  const int64_t s = 10 * n;
  t.step(n, b, kStepUs);
  double at = b;
  if (shape.leading_zero_grad) {
    t.annotation("Optimizer.zero_grad#SGD.zero_grad", at, 20);
    op(t, shape, "aten::zero_", at + 1, 15, s);
    at += 20;
  }
  if (shape.loader_range)
    t.annotation("enumerate(DataLoader)#CppDataLoaderIter.__next__", at, kLoaderUs);
  if (shape.workers) {
    t.op("aten::stack", at + 50, kLoaderUs - 100, kWorker);  // the main thread records nothing
  } else {
    op(t, shape, "aten::mean", at + 1, kLoaderUs / 2 - 2, s);
    op(t, shape, "aten::stack", at + kLoaderUs / 2, kLoaderUs / 2 - 1, s);
  }
  at += kLoaderUs;
  if (shape.copy_to_device) {
    op(t, shape, "aten::to", at, 30, s);
    const uint32_t copy = t.launch(at + 5, 5, at + 12, 13, "Memcpy HtoD (Pageable -> Device)",
                                   trace::EventKind::kMemcpy);
    t.gpu(copy).copy_kind = trace::CopyKind::kHtoD;
    at += 30;
  }
  if (shape.zero_grad_before_forward) {
    t.annotation("Optimizer.zero_grad#SGD.zero_grad", at, 20);
    at += 20;
  }
  t.op("aten::linear", at, 100);
  op(t, shape, "aten::t", at + 1, 4, s);
  op(t, shape, "aten::addmm", at + 10, 80, s + 1);
  op(t, shape, "aten::relu", at + 100, 20, s + 2);
  at += 120;
  if (shape.zero_grad_after_forward) {
    t.annotation("Optimizer.zero_grad#SGD.zero_grad", at, 20);
    at += 20;
  }
  t.op("autograd::engine::evaluate_function: AddmmBackward0", at, 100);
  t.annotation("Optimizer.step#SGD.step", at + 100, 50);
}

struct Loop {
  TestTrace t;
  analyzer::StepResult steps;
  analyzer::InferredInputWait wait;
};

void build(Loop& loop, const Shape& shape, int steps = 3) {
  for (int n = 0; n < steps; ++n) iteration(loop.t, shape, n);
  loop.t.finalize();
  loop.steps = analyzer::computeSteps(loop.t.model);
  loop.wait = analyzer::inferInputWait(loop.t.model, loop.steps);
}

// Builds the loop; every step's inferred wait must be the 400 µs fetch.
void requireFetchInferred(Loop& loop, const Shape& shape) {
  build(loop, shape);
  REQUIRE(loop.wait.inferred);
  CHECK(loop.wait.per_step_ns == std::vector<int64_t>{ns(kLoaderUs), ns(kLoaderUs), ns(kLoaderUs)});
}

}  // namespace

TEST_CASE("input wait: 0 workers, the fetch until zero_grad before the forward", "[input_wait]") {
  Shape shape;
  shape.zero_grad_before_forward = true;
  Loop loop;
  requireFetchInferred(loop, shape);
  CHECK(loop.wait.average_ns == Approx(ns(400)));
  CHECK(loop.wait.worker_wait_ns == std::vector<int64_t>{0, 0, 0});
  CHECK(loop.wait.steps_by_end[static_cast<size_t>(InputEnd::kZeroGrad)] == 3);
  CHECK(loop.wait.ranges.intervals().front().start == 0);
  CHECK(loop.wait.ranges.intervals().front().end == ns(400));
  CHECK(loop.wait.method().find("ended by Optimizer.zero_grad in 3 of 3 steps") !=
        std::string::npos);
}

TEST_CASE(
    "input wait: without zero_grad the forward starts at the op around the first autograd node",
    "[input_wait]") {
  // Every fetch op records the same sequence number as aten::t, which creates the first node;
  // aten::addmm records one more. The forward starts at aten::linear around aten::t.
  Loop loop;
  requireFetchInferred(loop, Shape{});
  CHECK(loop.wait.steps_by_end[static_cast<size_t>(InputEnd::kForward)] == 3);
}

TEST_CASE("input wait: the batch's host-to-device copy ends the fetch", "[input_wait]") {
  Shape shape;
  shape.copy_to_device = true;
  shape.zero_grad_before_forward = true;
  Loop loop;
  requireFetchInferred(loop, shape);
  CHECK(loop.wait.steps_by_end[static_cast<size_t>(InputEnd::kHostToDevice)] == 3);
}

TEST_CASE("input wait: zero_grad before the fetch is not part of it", "[input_wait]") {
  Shape shape;
  shape.leading_zero_grad = true;
  Loop loop;
  requireFetchInferred(loop, shape);
  CHECK(loop.wait.ranges.intervals().front().start == ns(20));
}

TEST_CASE("input wait: loader worker threads, the training thread idle until the batch arrives",
          "[input_wait]") {
  Shape shape;
  shape.workers = true;
  Loop loop;
  requireFetchInferred(loop, shape);
  // The worker's ops cover [50, 350) µs of each step's 400 µs idle wait.
  CHECK(loop.wait.worker_wait_ns == std::vector<int64_t>{ns(300), ns(300), ns(300)});
  CHECK(loop.wait.method().find(
            "0.30 ms/step of it the training thread was idle while other threads ran ops") !=
        std::string::npos);
}

TEST_CASE("input wait: a forward inside an annotation starts at the annotation", "[input_wait]") {
  // DistributedDataParallel.forward broadcasts buffers (ops without autograd nodes) before the
  // model's first op; that is the forward, not input (HTA's nccl_data trace: 38 ms per step).
  TestTrace t;
  for (int n = 0; n < 3; ++n) {
    const double b = kStepUs * n;
    const int64_t s = 10 * n;
    t.step(n, b, kStepUs);
    t.seqOp("aten::mean", b, 100, s);
    t.annotation("DistributedDataParallel.forward", b + 100, 600);
    t.op("aten::unflatten_dense_tensors", b + 110, 300);
    t.seqOp("aten::conv2d", b + 500, 50, s);
    t.seqOp("aten::add_", b + 560, 10, s + 1);
  }
  t.finalize();
  const analyzer::StepResult steps = analyzer::computeSteps(t.model);
  const analyzer::InferredInputWait wait = analyzer::inferInputWait(t.model, steps);
  REQUIRE(wait.inferred);
  CHECK(wait.per_step_ns == std::vector<int64_t>{ns(100), ns(100), ns(100)});
}

TEST_CASE(
    "input wait: legacy traces without sequence numbers infer nothing from a zero_grad after the forward",
    "[input_wait]") {
  Shape shape;
  shape.sequence_numbers = false;
  shape.zero_grad_after_forward = true;
  Loop loop;
  build(loop, shape);
  CHECK_FALSE(loop.wait.inferred);
  CHECK(loop.wait.reason.find("no step shows where its training starts") == 0);
  CHECK(loop.wait.ranges.empty());
}

TEST_CASE("input wait: a trace with DataLoader ranges is measured, not inferred", "[input_wait]") {
  Shape shape;
  shape.loader_range = true;
  Loop loop;
  build(loop, shape);
  CHECK_FALSE(loop.wait.inferred);
  CHECK(loop.wait.reason == "the trace has DataLoader ranges: the wait is measured");
}

TEST_CASE(
    "input wait: without iterations (no ProfilerStep, no backward passes) nothing is inferred",
    "[input_wait]") {
  TestTrace t;
  t.seqOp("aten::mean", 0, 400, 1);
  t.seqOp("aten::addmm", 400, 100, 2);
  t.finalize();
  const analyzer::StepResult steps = analyzer::computeSteps(t.model);
  REQUIRE(steps.source == analyzer::StepSource::kWholeTrace);
  const analyzer::InferredInputWait wait = analyzer::inferInputWait(t.model, steps);
  CHECK_FALSE(wait.inferred);
  CHECK(wait.reason == "the steps are not training-loop iterations (the whole trace is one step)");
}

TEST_CASE("input wait: GPU work running during the fetch is not waiting, as for a DataLoader range",
          "[input_wait]") {
  Shape shape;
  shape.copy_to_device = true;
  Loop loop;
  for (int n = 0; n < 3; ++n) iteration(loop.t, shape, n);
  loop.t.orphanKernel(kStepUs + 100, 100);  // runs 100 µs of step 1's fetch
  loop.t.finalize();
  loop.steps = analyzer::computeSteps(loop.t.model);
  loop.wait = analyzer::inferInputWait(loop.t.model, loop.steps);
  REQUIRE(loop.wait.inferred);
  REQUIRE(loop.wait.per_step_ns.size() == 3);
  CHECK(loop.wait.per_step_ns[1] == ns(300));
}

TEST_CASE("attribution: the inferred input phase is the host's DataLoader cause, marked inferred",
          "[input_wait]") {
  Loop loop;
  build(loop, Shape{});
  const analyzer::AttributionResult a =
      analyzer::computeAttribution(loop.t.model, loop.steps, loop.wait.ranges);
  CHECK(a.dataloader_inferred);
  REQUIRE(a.per_step.size() == 3);
  CHECK(a.per_step[0].host_ns[static_cast<size_t>(analyzer::HostCause::kDataLoader)] == ns(400));
  CHECK(analyzer::hostCauseLabel(a, analyzer::HostCause::kDataLoader) == "DataLoader (inferred)");
  const analyzer::AttributionResult plain = analyzer::computeAttribution(loop.t.model, loop.steps);
  CHECK_FALSE(plain.dataloader_inferred);
  CHECK(plain.per_step[0].host_ns[static_cast<size_t>(analyzer::HostCause::kDataLoader)] == 0);
  CHECK(analyzer::hostCauseLabel(plain, analyzer::HostCause::kDataLoader) == "DataLoader");
}

namespace {

// nanoGPT's loop (h6 D2): every 3rd iteration starts with an evaluation under torch.no_grad()
// (a 100 µs batch, then a 2 ms forward of linear, relu, linear whose ops record no sequence
// number and create no node) and a 1 ms checkpoint, then fetches its batch (400 µs) and trains.
// Returns the end.
double nanoGptIteration(TestTrace& t, int n, double b, bool eval) {
  const int64_t s = 10 * n;
  const double length = eval ? 4100 + kStepUs : kStepUs;
  t.step(n, b, length);
  double at = b;
  if (eval) {
    t.op("aten::randint", at, 100);
    t.op("aten::linear", at + 100, 1500);
    t.op("aten::t", at + 101, 4);
    t.op("aten::addmm", at + 110, 1400);
    t.op("aten::relu", at + 1600, 100);
    t.op("aten::linear", at + 1700, 400);
    t.op("aten::_save", at + 3000, 1000);  // torch.save: unrecorded Python around one op
    at += 4100;
  }
  t.seqOp("aten::randint", at + 1, kLoaderUs - 2, s);
  at += kLoaderUs;
  t.op("aten::linear", at, 100);
  t.seqOp("aten::t", at + 1, 4, s);
  t.seqOp("aten::addmm", at + 10, 80, s + 1);
  t.seqOp("aten::relu", at + 100, 20, s + 2);
  t.seqOp("aten::linear", at + 120, 50, s + 3);
  t.op("autograd::engine::evaluate_function: AddmmBackward0", at + 170, 100);
  t.annotation("Optimizer.step#SGD.step", at + 270, 50);
  return b + length;
}

}  // namespace

TEST_CASE("input wait: an evaluation without autograd nodes ends the input phase", "[input_wait]") {
  TestTrace t;
  double at = 0;
  for (int n = 0; n < 6; ++n) at = nanoGptIteration(t, n, at, n % 3 == 2);
  t.finalize();
  const analyzer::StepResult steps = analyzer::computeSteps(t.model);
  const analyzer::InferredInputWait wait = analyzer::inferInputWait(t.model, steps);
  REQUIRE(wait.inferred);
  // Was 4.5 ms in the evaluating steps: the evaluation, the checkpoint and the batch after it.
  CHECK(wait.per_step_ns ==
        std::vector<int64_t>{ns(400), ns(400), ns(100), ns(400), ns(400), ns(100)});
  CHECK(wait.steps_by_end[static_cast<size_t>(InputEnd::kForwardWithoutGrad)] == 2);
  CHECK(wait.steps_by_end[static_cast<size_t>(InputEnd::kForward)] == 4);
  CHECK(wait.method().find("a forward without autograd nodes (an evaluation under torch.no_grad) "
                           "in 2 of 6 steps); the evaluation, and what follows it until the "
                           "training forward (a checkpoint, the next batch), is not counted") !=
        std::string::npos);
  CHECK(wait.method().find("a batch fetched after the forward starts") != std::string::npos);
}

TEST_CASE("input wait: a loader op named like the forward's first op is still input",
          "[input_wait]") {
  // The batch is projected by its own aten::linear, then stacked: not the model's first ops
  // (linear, relu, the backward), so not an evaluation.
  TestTrace t;
  for (int n = 0; n < 3; ++n) {
    const double b = kStepUs * n;
    const int64_t s = 10 * n;
    t.step(n, b, kStepUs);
    t.seqOp("aten::linear", b + 1, 100, s);
    t.seqOp("aten::stack", b + 200, 100, s);
    t.op("aten::linear", b + 400, 100);
    t.seqOp("aten::t", b + 401, 4, s);
    t.seqOp("aten::addmm", b + 410, 80, s + 1);
    t.seqOp("aten::relu", b + 500, 20, s + 2);
    t.op("autograd::engine::evaluate_function: AddmmBackward0", b + 520, 100);
  }
  t.finalize();
  const analyzer::StepResult steps = analyzer::computeSteps(t.model);
  const analyzer::InferredInputWait wait = analyzer::inferInputWait(t.model, steps);
  REQUIRE(wait.inferred);
  CHECK(wait.per_step_ns == std::vector<int64_t>{ns(400), ns(400), ns(400)});
  CHECK(wait.steps_by_end[static_cast<size_t>(InputEnd::kForwardWithoutGrad)] == 0);
}

TEST_CASE("input wait: a batch fetched between forward and backward is not seen, and said so",
          "[input_wait]") {
  // nanoGPT's order (h6 D9): forward, then the next batch (4 ms of ops without autograd
  // nodes), then backward. Only the prefix before the forward is an input phase: empty here.
  TestTrace t;
  for (int n = 0; n < 3; ++n) {
    const double b = 10 * kStepUs * n;
    const int64_t s = 10 * n;
    t.step(n, b, 10 * kStepUs);
    t.op("aten::linear", b, 100);
    t.seqOp("aten::t", b + 1, 4, s);
    t.seqOp("aten::addmm", b + 10, 80, s + 1);
    t.seqOp("aten::stack", b + 200, 4000, s + 2);  // get_batch
    t.op("autograd::engine::evaluate_function: AddmmBackward0", b + 4300, 100);
  }
  t.finalize();
  const analyzer::StepResult steps = analyzer::computeSteps(t.model);
  const analyzer::InferredInputWait wait = analyzer::inferInputWait(t.model, steps);
  REQUIRE(wait.inferred);
  CHECK(wait.per_step_ns == std::vector<int64_t>{0, 0, 0});
  CHECK(wait.method().find("; a batch fetched after the forward starts (nanoGPT fetches the next "
                           "one before the backward) is not seen") != std::string::npos);
}

TEST_CASE("input wait: phases far above their median are averaged, and the method says so",
          "[input_wait]") {
  // A loader stall of 8 ms in step 2 against 0.4 ms elsewhere: it may be the loader or not.
  TestTrace t;
  double at = 0;
  for (int n = 0; n < 5; ++n) {
    const double fetch = n == 2 ? 8000 : kLoaderUs;
    const int64_t s = 10 * n;
    t.step(n, at, fetch + 600);
    t.seqOp("aten::stack", at + 1, fetch - 2, s);
    t.op("aten::linear", at + fetch, 100);
    t.seqOp("aten::t", at + fetch + 1, 4, s);
    t.seqOp("aten::addmm", at + fetch + 10, 80, s + 1);
    at += fetch + 600;
  }
  t.finalize();
  const analyzer::StepResult steps = analyzer::computeSteps(t.model);
  const analyzer::InferredInputWait wait = analyzer::inferInputWait(t.model, steps);
  REQUIRE(wait.inferred);
  CHECK(wait.average_ns == Approx(ns(4 * 400 + 8000) / 5.0));
  CHECK(wait.median_ns == ns(400));
  CHECK(wait.method().find("; the phases vary widely (median 0.40 ms, longest 8.00 ms in step 2): "
                           "a long one may hold other work than loading") != std::string::npos);
  Loop regular;
  requireFetchInferred(regular, Shape{});
  CHECK(regular.wait.method().find("vary widely") == std::string::npos);
}
