// The profiler's cost per recorded host event: measured by steplint's collector, or for
// torch.profiler traces 2 µs bounded by the trace's own nesting (profiler_cost_bound.h).
#include <catch2/catch.hpp>

#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "profiler_cost_bound.h"
#include "profiler_step_bound.h"
#include "steplint/analyzer/profiler_overhead.h"
#include "steplint/analyzer/replay.h"
#include "steplint/analyzer/steps.h"
#include "steplint/analyzer/summary.h"
#include "test_model.h"

using steplint::analyzer::boundProfilerCost;
using steplint::analyzer::kTorchProfilerEventNs;
using steplint::analyzer::ProfilerCostBounds;
using steplint::analyzer::profilerOverhead;
using steplint::analyzer::ProfilerOverhead;
using steplint::analyzer::StepReplay;
using steplint::test::TestTrace;
using steplint::trace::EventKind;

namespace {

/// `parents` Python frames of 10 µs, 20 µs apart, each calling `children` frames of 0.5 µs
/// spread evenly over its first 9 µs (children of kind `child` from `first_child` on).
void denseCallers(TestTrace& t, int parents, int children, double from = 0,
                  EventKind child = EventKind::kPythonFunction, int first_child = 0) {
  for (int p = 0; p < parents; ++p) {
    const double at = from + 20.0 * p;
    t.event(EventKind::kPythonFunction, "forward", at, 10);
    for (int c = 0; c < children; ++c)
      t.event(c >= first_child ? child : EventKind::kPythonFunction, "helper",
              at + 0.5 + 9.0 * c / children, 0.5);
  }
}

/// Four 10 ms steps: a 4 ms DataLoader range holding 999 Python frames of 3 µs, then a 1 ms op.
void loaderOfFrames(TestTrace& t) {
  for (int s = 0; s < 4; ++s) {
    const double at = 10'000.0 * s;
    t.step(s + 1, at, 10'000);
    t.annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", at, 4000);
    for (int k = 0; k < 999; ++k)
      t.event(EventKind::kPythonFunction, "__getitem__", at + 1 + 4 * k, 3);
    t.op("aten::train_op", at + 5000, 1000);
  }
  t.finalize();
}

}  // namespace

TEST_CASE("profiler cost bound: a Python frame costs at most its callers' self time per child") {
  TestTrace t;
  denseCallers(t, 20, 10);  // self time 10 - 10 x 0.5 = 5 µs for 10 children: 500 ns + 500 ns
  t.finalize();
  const ProfilerCostBounds b = boundProfilerCost(t.model);
  CHECK(b.python.parents == 20);
  CHECK(b.python.ns == Approx(1000.0));
  CHECK(b.op.ns < 0);  // no op called 8 ops

  const auto overhead = profilerOverhead(t.model);
  CHECK(overhead.per_python_frame_ns == Approx(1000.0));
  CHECK(overhead.per_event_ns == kTorchProfilerEventNs);  // ops keep the 2 µs estimate
  CHECK(overhead.source.find("at most 1000 ns per Python frame") != std::string::npos);
}

TEST_CASE("profiler cost bound: too few dense callers, mixed or overlapping children say nothing") {
  SECTION("callers with fewer than kMinChildren children say nothing") {
    TestTrace t;
    denseCallers(t, 30, ProfilerCostBounds::kMinChildren - 1, 1000);
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CHECK(b.python.parents == 0);
    CHECK(b.python.ns < 0);
    const auto overhead = profilerOverhead(t.model);
    CHECK(overhead.per_python_frame_ns == kTorchProfilerEventNs);
    CHECK(overhead.source == "torch.profiler's cost per recorded host event estimated at 2 us");
  }
  SECTION("few callers: the lowest bound but one, which one clipped caller cannot pull down") {
    TestTrace t;
    denseCallers(t, 14, 10);  // 1000 ns each (see above)
    // One caller whose 10 children fill it: self time 0, so it alone would say 500 ns.
    t.event(EventKind::kPythonFunction, "forward", 5000, 5);
    for (int c = 0; c < 10; ++c) t.event(EventKind::kPythonFunction, "helper", 5000 + 0.5 * c, 0.5);
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CHECK(b.python.parents == 15);
    CHECK(b.python.ns == Approx(1000.0));
  }
  SECTION("callers of both sorts bound a mix of two costs: left out") {
    TestTrace t;
    denseCallers(t, 40, 10, 0, EventKind::kCpuOp, 5);
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CHECK(b.python.parents == 0);
    CHECK(b.op.parents == 0);
  }
  SECTION("children that overlap each other (clock quirks) leave no self time to read") {
    TestTrace t;
    for (int p = 0; p < 20; ++p) {
      t.event(EventKind::kPythonFunction, "forward", 20.0 * p, 10);
      for (int c = 0; c < 10; ++c)
        t.event(EventKind::kPythonFunction, "helper", 20.0 * p + 0.9 * c, 1.2);
    }
    t.finalize();
    CHECK(boundProfilerCost(t.model).python.ns < 0);
  }
  SECTION("ops calling ops bound the op cost") {
    TestTrace t;
    for (int p = 0; p < 20; ++p) {
      t.op("aten::outer", 100.0 * p, 40);
      for (int c = 0; c < 8; ++c) t.op("aten::inner", 100.0 * p + 1 + 4 * c, 3);
    }
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CHECK(b.op.parents == 20);
    CHECK(b.op.ns == Approx(16000.0 / 8 + 3000));  // above 2 µs: the estimate stays
    CHECK(profilerOverhead(t.model).per_event_ns == kTorchProfilerEventNs);
  }
}

TEST_CASE("profiler cost bound: a measured cost is used as it is, for both sorts") {
  TestTrace t;
  denseCallers(t, 20, 10);
  t.finalize();
  t.model.metadata.extra = {{"steplint_version", "\"0.1.0\""}, {"steplint_op_overhead_ns", "300"}};
  const auto overhead = profilerOverhead(t.model);
  CHECK(overhead.per_event_ns == Approx(300.0));
  CHECK(overhead.per_python_frame_ns == Approx(300.0));
  CHECK(overhead.nsFor(EventKind::kPythonFunction) == Approx(300.0));
}

TEST_CASE("replay: Python frames come out at their own cost, ops and annotations at theirs") {
  // Per step the host recorded 3 RecordFunction ranges (the step, the loader, the op) at 1 µs
  // and 999 frames at 0.1 µs: 102.9 µs of recording.
  TestTrace t;
  loaderOfFrames(t);
  const auto steps = steplint::analyzer::computeSteps(t.model);
  const StepReplay replay(t.model, steps, {}, ProfilerOverhead{1000, 100, ""});
  CHECK(replay.replayStepNs(0) == Approx(10e6 - 102'900).margin(10));
  CHECK(replay.replayStepNs(0, {false, /*keep_overhead=*/true}) == Approx(10e6).margin(10));
  // One cost for both sorts: what the replay took out before Python frames had their own.
  const StepReplay same(t.model, steps, {}, ProfilerOverhead{1000, 1000, ""});
  CHECK(same.replayStepNs(0) == Approx(10e6 - 1'002'000).margin(10));
}

TEST_CASE("summary: the profiler's cost per step by sort, Python frames apart") {
  TestTrace t;
  loaderOfFrames(t);  // 4 dense callers bounding ~4 µs: 2 µs for both sorts
  const steplint::analyzer::TraceSummary s = steplint::analyzer::summarize(t.model);
  CHECK(s.profiler.events_per_step == Approx(1002.0));
  CHECK(s.profiler.python_frames_per_step == Approx(999.0));
  CHECK(s.profiler.nsPerStep() == Approx(1002 * 2000.0));
  std::ostringstream text;
  steplint::analyzer::printSummaryText(text, s, t.model);
  CHECK(text.str().find("= 3 recorded ops and annotations per step x 2000 ns + 999 Python frames "
                        "x 2000 ns (torch.profiler's") != std::string::npos);
  const nlohmann::json j = steplint::analyzer::summaryToJson(s, t.model)["profiler_overhead"];
  CHECK(j["ns_per_python_frame"] == Approx(2000.0));
  CHECK(j["python_frames_per_step"] == Approx(999.0));
}

TEST_CASE("profiler cost: the recording fits in each step's time on its thread") {
  // One 100 µs step of 400 top-level ops of 0.1 µs, 0.25 µs apart, and no caller of 8+
  // children: 2 µs each would be 800 µs, eight times the step. The leaves cover 40 µs, so
  // the recording has at most 100 - 40 + 400 x 0.1 = 100 µs, i.e. 250 ns per op (the whole
  // step: the bound is an upper one).
  TestTrace t;
  t.step(1, 0, 100);
  for (int k = 0; k < 400; ++k) t.op("aten::tiny", 0.05 + 0.25 * k, 0.1);
  t.finalize();
  const steplint::analyzer::TraceSummary s = steplint::analyzer::summarize(t.model);
  CHECK(s.profiler.overhead.per_event_ns == Approx(100e3 / 401).epsilon(0.01));
  CHECK(s.profiler.nsPerStep() <= 100e3 * 1.001);
  CHECK(s.profiler.overhead.source.find("so that the recording fits in its steps (401 recorded "
                                        "events on one thread in step 1") != std::string::npos);

  SECTION("longer ops leave less time outside them: a tighter bound") {
    TestTrace u;
    u.step(1, 0, 100);
    for (int k = 0; k < 40; ++k) u.op("aten::mm", 0.1 + 2.5 * k, 2);  // leaves cover 80 µs
    u.finalize();
    const auto cost = steplint::analyzer::summarize(u.model).profiler;
    // 100 - 80 + 41 x 2 = 102 µs for 41 events (the step range covers it all): above the step,
    // so the step's 100 µs binds: 2439 ns; with 2 µs per event (82 µs) nothing binds at all.
    CHECK(cost.overhead.per_event_ns == Approx(kTorchProfilerEventNs));
  }
  SECTION("a measured cost is not scaled") {
    TestTrace u;
    u.step(1, 0, 100);
    for (int k = 0; k < 400; ++k) u.op("aten::tiny", 0.05 + 0.25 * k, 0.1);
    u.finalize();
    u.model.metadata.extra = {{"steplint_version", "\"0.1.0\""},
                              {"steplint_op_overhead_ns", "300"}};
    CHECK(steplint::analyzer::summarize(u.model).profiler.overhead.per_event_ns == Approx(300.0));
  }
}

namespace {

/// `n` ops calling 10 ops of 1 µs each, whose bounds rise by 50 ns: 1200, 1250, 1300 ... ns
/// (self time 2 + 0.5 k µs over 10 children, plus the shortest child's 1 µs).
void risingOpCallers(TestTrace& t, int n) {
  for (int k = 0; k < n; ++k) {
    const double at = 100.0 * k;
    t.op("aten::stack", at, 10 + 2 + 0.5 * k);
    for (int c = 0; c < 10; ++c) t.op("aten::empty", at + 0.1 + 1.1 * c, 1);
  }
}

/// One step of a torch.profiler trace of a small MLP, as the legacy export writes it (every
/// range a plain op): the step's, the DataLoader's and the optimizer's ranges hold many ops
/// and much unrecorded Python; two aten ops bound the cost at 200 and 300 ns.
void mlpStep(TestTrace& t, int n) {
  const double at = 1000.0 * n;
  t.op("ProfilerStep#" + std::to_string(n + 1), at, 1000);  // the legacy export's kind
  t.op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", at + 1, 200);
  for (int c = 0; c < 40; ++c) t.op("aten::randn", at + 3 + 4 * c, 1);  // self time 160 µs
  for (int k = 0; k < 2; ++k) {  // self time 2 and 3 µs over 10 children, the last of 0 µs
    const double p = at + 300 + 100 * k;
    t.op("aten::stack", p, 11 + k);
    for (int c = 0; c < 10; ++c) t.op("aten::cat", p + 1 + c, c == 9 ? 0 : 1);
  }
  t.op("Optimizer.step#SGD.step", at + 600, 100);
  for (int c = 0; c < 10; ++c) t.op("aten::add_", at + 605 + 8 * c, 2);  // self time 80 µs
  for (int c = 0; c < 10; ++c) t.op("aten::relu", at + 750 + 10 * c, 2);
}

}  // namespace

TEST_CASE("profiler cost bound: the rank grows with the callers' count, with no switch") {
  for (const auto& [n, rank] : std::vector<std::pair<int, int>>{
           {1, 0}, {2, 1}, {3, 1}, {15, 1}, {16, 1}, {21, 1}, {41, 2}, {61, 3}}) {
    TestTrace t;
    risingOpCallers(t, n);
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CAPTURE(n);
    CHECK(b.op.parents == static_cast<size_t>(n));
    CHECK(b.op.ns == Approx(1200 + 50.0 * rank));
  }
}

TEST_CASE("profiler cost bound: steps and ranges around Python code are no bounds") {
  // h7 D2: with 3 steps, 15 dense callers (16 needed for the quantile) made the loosest bound,
  // a ProfilerStep's, the estimate: 2 µs per op, 63 % of the step, where 4 steps gave 273 ns.
  for (int steps : {3, 4}) {
    TestTrace t;
    for (int n = 0; n < steps; ++n) mlpStep(t, n);
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CAPTURE(steps);
    CHECK(b.op.parents == static_cast<size_t>(2 * steps));  // the aten::stack callers only
    CHECK(b.op.ns == Approx(200.0));  // 2 µs over 10, then 0: the lowest but one of 200 / 300
    CHECK(profilerOverhead(t.model).per_event_ns == Approx(200.0));
  }
  SECTION("a user annotation over ops, but not one over Python frames (they record its code)") {
    TestTrace t;
    for (int k = 0; k < 4; ++k) {
      const bool frames = k % 2 == 1;
      t.annotation("train_step", 100.0 * k, 50);
      for (int c = 0; c < 10; ++c)
        t.event(frames ? EventKind::kPythonFunction : EventKind::kCpuOp, "child",
                100.0 * k + 1 + 4 * c, 1);
    }
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CHECK(b.op.parents == 0);
    CHECK(b.python.parents == 2);
  }
}

TEST_CASE("profiler cost bound: whole-µs timestamps let a child stick out by one tick") {
  // 20 callers of 11 µs over 10 ops of 1 µs; the last one sticks out by `over` µs. Counted
  // clipped: self time 1 µs, 100 ns per child plus the shortest child's 1 µs.
  auto bound = [](double over, bool ns_clock) {
    TestTrace t;
    for (int k = 0; k < 20; ++k) {
      const double at = 100.0 * k;
      t.op("aten::cat", at, 11);
      for (int c = 0; c < 10; ++c) t.op("aten::empty", at + 1 + c, c == 9 ? 1 + over : 1);
    }
    if (ns_clock) t.op("aten::empty", 5000.25, 0.5);  // a clock with a finer tick
    t.finalize();
    return boundProfilerCost(t.model).op;
  };
  CHECK(bound(0, false).ns == Approx(1100.0));
  CHECK(bound(1, false).parents == 20);
  CHECK(bound(1, false).ns == Approx(1100.0));
  CHECK(bound(2, false).parents == 0);
  CHECK(bound(1, true).parents == 0);
}

TEST_CASE("keptStepAt, with or without a hint, finds the step a time falls in",
          "[analyzer][profiler]") {
  // Steps with gaps between them, one touching the next, and times before, between and after,
  // in order (as a track's events come) and then at random.
  steplint::analyzer::StepResult steps;
  for (const auto& [start, end] : std::vector<std::pair<int64_t, int64_t>>{
           {100, 200}, {250, 300}, {300, 420}, {500, 510}, {900, 1000}}) {
    steplint::analyzer::Step s;
    s.start_ns = start, s.end_ns = end;
    steps.steps.push_back(s);
  }
  const auto reference = [&](int64_t t) {  // the last step starting at or before t, if t is in it
    size_t found = steps.steps.size();
    for (size_t s = 0; s < steps.steps.size(); ++s)
      if (steps.steps[s].start_ns <= t) found = s;
    return found < steps.steps.size() && t < steps.steps[found].end_ns ? found : steps.steps.size();
  };
  size_t hint = 0;
  for (int64_t t = 0; t <= 1100; ++t) {
    REQUIRE(steplint::analyzer::keptStepAt(steps, t, hint) == reference(t));
    REQUIRE(steplint::analyzer::keptStepAt(steps, t) == reference(t));
  }
  std::mt19937_64 rng(18);
  for (int i = 0; i < 5000; ++i) {
    const auto t = static_cast<int64_t>(rng() % 1200) - 50;
    REQUIRE(steplint::analyzer::keptStepAt(steps, t, hint) == reference(t));
  }
  steplint::analyzer::StepResult none;
  hint = 3;
  CHECK(steplint::analyzer::keptStepAt(none, 5, hint) == 0);
}
