// The profiler's cost per recorded host event: measured by steplint's collector, or for
// torch.profiler traces 2 µs bounded by the trace's own nesting (profiler_cost_bound.h).
#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "profiler_cost_bound.h"
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
  SECTION("fewer callers than kMinParents: the loosest of their bounds, not a quantile") {
    TestTrace t;
    denseCallers(t, ProfilerCostBounds::kMinParents - 2, 10);  // 1000 ns each (see above)
    // One caller whose 10 children fill it: self time 0, so it alone would say 500 ns.
    t.event(EventKind::kPythonFunction, "forward", 5000, 5);
    for (int c = 0; c < 10; ++c) t.event(EventKind::kPythonFunction, "helper", 5000 + 0.5 * c, 0.5);
    t.finalize();
    const ProfilerCostBounds b = boundProfilerCost(t.model);
    CHECK(b.python.parents == ProfilerCostBounds::kMinParents - 1);
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
  loaderOfFrames(t);  // 4 dense callers: too few to bound anything, 2 µs for both sorts
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
