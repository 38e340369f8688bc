#include "steplint/analyzer/steps.h"

#include <vector>

#include <catch2/catch.hpp>

#include "steplint/analyzer/summary.h"
#include "test_model.h"

using namespace steplint;
using analyzer::computeSteps;
using analyzer::StepSource;
using test::TestTrace;

TEST_CASE("steps are extended to the end of the GPU work they launched", "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.launch(10, 5, 20, 130);   // step 1's kernel runs until 150, past the host step
  t.launch(110, 5, 150, 80);  // step 2's kernel starts when the stream frees up, ends 230
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kProfilerStep);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[0].number == 1);
  CHECK(r.steps[0].start_ns == 0);
  CHECK(r.steps[0].end_ns == 150'000);
  CHECK(r.steps[0].host_end_ns == 100'000);
  CHECK(r.steps[1].start_ns == 150'000);  // never overlaps the previous step
  CHECK(r.steps[1].host_start_ns == 100'000);
  CHECK(r.steps[1].end_ns == 230'000);
  CHECK(r.steps[0].device_op_count == 1);
  CHECK(r.dropped_tail_steps == 0);
}

TEST_CASE("a step without device ops keeps its host end but never ends before it starts",
          "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 20);
  t.step(3, 120, 100);
  t.launch(10, 5, 20, 180);  // step 1's GPU work ends at 200, inside step 3's host range
  t.launch(130, 5, 200, 10);
  t.finalize();
  analyzer::StepOptions keep;
  keep.drop_incomplete_tail = false;
  const auto r = computeSteps(t.model, keep);
  REQUIRE(r.steps.size() == 3);
  CHECK(r.steps[1].start_ns == 200'000);
  CHECK(r.steps[1].end_ns == 200'000);  // max(host end 120, start 200)
  CHECK(r.steps[2].start_ns == 200'000);
  CHECK(r.steps[2].end_ns == 220'000);
}

TEST_CASE("a step whose device work ends before the previous step is clamped to zero length",
          "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.launch(10, 5, 20, 480);    // ends at 500
  t.launch(110, 5, 120, 180);  // ends at 300 < step 2's start (500)
  t.finalize();
  analyzer::StepOptions keep;
  keep.drop_incomplete_tail = false;
  const auto r = computeSteps(t.model, keep);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[1].start_ns == 500'000);
  CHECK(r.steps[1].duration_ns() == 0);
  CHECK_FALSE(r.notes.empty());
}

TEST_CASE("launches straddling a step boundary are not matched (TB-Q7)", "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.launch(10, 5, 20, 30);
  t.launch(95, 10, 120, 200);  // call [95, 105) crosses into step 2
  t.launch(150, 5, 160, 10);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[0].device_op_count == 1);
  CHECK(r.steps[1].device_op_count == 1);
  CHECK(r.steps[1].end_ns == 200'000);  // the straddling kernel (ends 320) does not extend it
}

TEST_CASE("device work from before the first step pushes step 1's start", "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.orphanKernel(0, 30);   // ends at 30, before step 1's first kernel at 40: pushes start to 30
  t.orphanKernel(35, 20);  // ends at 55, after step 1's first kernel start: ignored
  t.launch(10, 5, 40, 10);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 1);
  CHECK(r.steps[0].start_ns == 30'000);
  CHECK(r.steps[0].end_ns == 100'000);
}

TEST_CASE("incomplete tail steps are dropped as tb_plugin does (TB-Q6)", "[steps]") {
  auto build = [](TestTrace& t, int last_step_kernels) {
    for (int s = 0; s < 3; ++s) t.step(s + 1, s * 100.0, 100);
    for (int s = 0; s < 3; ++s) {
      const int kernels = s == 2 ? last_step_kernels : 5;
      for (int k = 0; k < kernels; ++k)
        t.launch(s * 100.0 + 10 + k * 5, 2, s * 100.0 + 20 + k * 5, 2);
    }
    t.finalize();
  };
  SECTION("the last step has < 80% of the previous step's device ops") {
    TestTrace t;
    build(t, 3);
    const auto r = computeSteps(t.model);
    CHECK(r.steps.size() == 2);
    CHECK(r.dropped_tail_steps == 1);
    CHECK_FALSE(r.notes.empty());
    analyzer::StepOptions keep;
    keep.drop_incomplete_tail = false;
    CHECK(computeSteps(t.model, keep).steps.size() == 3);
  }
  SECTION("trailing steps without device ops") {
    TestTrace t;
    build(t, 0);
    const auto r = computeSteps(t.model);
    CHECK(r.steps.size() == 2);
    CHECK(r.dropped_tail_steps == 1);
  }
  SECTION("a complete last step is kept") {
    TestTrace t;
    build(t, 4);  // 4 >= 0.8 * 5
    const auto r = computeSteps(t.model);
    CHECK(r.steps.size() == 3);
    CHECK(r.dropped_tail_steps == 0);
  }
}

TEST_CASE("without ProfilerStep ranges the whole CPU activity is one step", "[steps]") {
  TestTrace t;
  t.op("aten::mm", 10, 20);
  t.annotation("## forward ##", 5, 50);
  t.launch(12, 2, 40, 30);  // kernel ends at 70, past the CPU activity
  t.finalize();
  const auto r = computeSteps(t.model);
  CHECK(r.source == StepSource::kWholeTrace);
  REQUIRE(r.steps.size() == 1);
  CHECK(r.steps[0].number == 0);
  CHECK(r.steps[0].host_start_ns == 5'000);
  CHECK(r.steps[0].host_end_ns == 55'000);
  CHECK(r.steps[0].end_ns == 70'000);
  CHECK_FALSE(r.notes.empty());
}

// The replay replays a step's host range: a synchronize after the last op belongs in it, or a
// step that waits half its time there would be replayed at half its length.
TEST_CASE("the whole-trace step spans runtime calls after the last op", "[steps]") {
  TestTrace t;
  t.op("aten::mm", 10, 20);
  t.launch(12, 2, 40, 300);
  t.event(steplint::trace::EventKind::kRuntime, "cudaDeviceSynchronize", 35, 310);
  t.finalize();
  const auto r = computeSteps(t.model);
  CHECK(r.source == StepSource::kWholeTrace);
  REQUIRE(r.steps.size() == 1);
  CHECK(r.steps[0].host_start_ns == 10'000);
  CHECK(r.steps[0].host_end_ns == 345'000);
  CHECK(r.steps[0].end_ns == 345'000);

  // CUDA calls alone (a trace recorded with CPU ops off) still give the step they span.
  TestTrace calls;
  calls.launch(0, 5, 10, 20);
  calls.event(steplint::trace::EventKind::kRuntime, "cudaStreamSynchronize", 6, 30);
  calls.finalize();
  const auto only_calls = computeSteps(calls.model);
  REQUIRE(only_calls.steps.size() == 1);
  CHECK(only_calls.steps[0].host_start_ns == 0);
  CHECK(only_calls.steps[0].host_end_ns == 36'000);
}

TEST_CASE("a trace without CPU events has no steps", "[steps]") {
  TestTrace t;
  t.orphanKernel(0, 10);
  t.finalize();
  const auto r = computeSteps(t.model);
  CHECK(r.source == StepSource::kNone);
  CHECK(r.steps.empty());
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].find("no CPU events") != std::string::npos);
}

TEST_CASE("a GPU-side ProfilerStep annotation is not a step (TB-Q9)", "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.event(trace::EventKind::kGpuUserAnnotation, "ProfilerStep#1", 20, 50, TestTrace::kDevice, 7);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 1);
  CHECK(r.steps[0].host_start_ns == 0);
}

TEST_CASE("driver-launched kernels are matched to steps (unlike tb_plugin, TB-Q10)", "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.launch(10, 5, 50, 100, "triton_poi_fused_add_0", trace::EventKind::kKernel,
           trace::EventKind::kDriver);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 1);
  CHECK(r.steps[0].device_op_count == 1);
  CHECK(r.steps[0].end_ns == 150'000);
}

TEST_CASE("steps are ordered by time and numbered from their names", "[steps]") {
  TestTrace t;
  t.step(12, 200, 100);
  t.step(11, 0, 100);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[0].number == 11);
  CHECK(r.steps[1].number == 12);
}

TEST_CASE("a zero-length launch at a step's end belongs to that step, as in tb_plugin", "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.launch(100, 0, 120, 10);  // call [100,100): inside step 1 by tb's test order
  t.launch(150, 5, 160, 10);
  t.finalize();
  analyzer::StepOptions keep;
  keep.drop_incomplete_tail = false;
  const auto r = computeSteps(t.model, keep);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[0].device_op_count == 1);
  CHECK(r.steps[0].end_ns == 130'000);
  CHECK(r.steps[1].device_op_count == 1);
}

TEST_CASE("leading steps over 3x the median are dropped as warm-up, with a note", "[steps]") {
  TestTrace t;
  t.step(0, 0, 3000);    // CUDA/cuBLAS start-up: 30x a normal step
  t.step(1, 3000, 400);  // autotuning: 4x
  t.step(2, 3400, 100);
  t.step(3, 3500, 110);
  t.step(4, 3610, 90);
  t.step(5, 3700, 100);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 4);
  CHECK(r.steps.front().number == 2);
  CHECK(r.dropped_warmup_steps == 2);
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes.back().find("dropped warm-up step(s) 0, 1") != std::string::npos);

  analyzer::StepOptions keep;
  keep.drop_warmup_head = false;
  const auto kept = computeSteps(t.model, keep);
  CHECK(kept.steps.size() == 6);
  CHECK(kept.dropped_warmup_steps == 0);
}

TEST_CASE("steady steps, a merely slow first step and short runs keep every step", "[steps]") {
  TestTrace steady;
  for (int n = 0; n < 5; ++n) steady.step(n, n * 100, n == 0 ? 290 : 100);  // 2.9x: not warm-up
  steady.finalize();
  CHECK(computeSteps(steady.model).dropped_warmup_steps == 0);

  TestTrace short_run;  // 3 steps: nothing may go, the median would be meaningless
  short_run.step(0, 0, 5000);
  short_run.step(1, 5000, 100);
  short_run.step(2, 5100, 100);
  short_run.finalize();
  const auto r = computeSteps(short_run.model);
  CHECK(r.steps.size() == 3);
  CHECK(r.dropped_warmup_steps == 0);
}

TEST_CASE("a million-fold repeated ProfilerStep#1 is one step and a note, not a million steps",
          "[steps]") {
  // Issue 12: 10^6 identical ProfilerStep#1 events made `summary` print a 10^6-row breakdown
  // (729 MB). 10^4 copies keep the test quick; the cost was per copy.
  TestTrace t;
  for (int i = 0; i < 10000; ++i) t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.finalize();
  const auto r = computeSteps(t.model);
  REQUIRE(r.source == StepSource::kProfilerStep);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[0].number == 1);
  CHECK(r.steps[0].host_start_ns == 0);
  CHECK(r.steps[0].host_end_ns == 100'000);
  CHECK(r.steps[1].number == 2);
  REQUIRE(r.notes.size() == 1);
  CHECK(
      r.notes[0] ==
      "malformed trace: 9999 ProfilerStep range(s) repeat a step number (ProfilerStep#1 x10000; 9999 exact "
      "copies); events written twice or recordings merged? Only the earliest range of each number is used");

  const analyzer::TraceSummary summary = analyzer::summarize(t.model);
  CHECK(summary.breakdown.per_step.size() == 2);
}

TEST_CASE("repeated step numbers at different times keep the earliest range of each", "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(2, 100, 100);
  t.step(3, 200, 100);
  t.step(1, 300, 100);  // a second recording appended to the first
  t.step(2, 400, 100);
  t.step(5, 500, 100);
  t.step(1, 600, 100);
  t.step(7, 700, 100);
  t.step(9, 800, 100);
  t.step(7, 900, 100);
  t.step(9, 1000, 100);
  t.step(3, 1100, 100);
  t.finalize();
  analyzer::StepOptions keep;
  keep.drop_warmup_head = false;
  const auto r = computeSteps(t.model, keep);
  REQUIRE(r.steps.size() == 6);
  std::vector<int64_t> numbers, starts;
  for (const auto& s : r.steps) {
    numbers.push_back(s.number);
    starts.push_back(s.host_start_ns);
  }
  CHECK(numbers == std::vector<int64_t>{1, 2, 3, 5, 7, 9});
  CHECK(starts == std::vector<int64_t>{0, 100'000, 200'000, 500'000, 700'000, 800'000});
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].rfind(
            "malformed trace: 6 ProfilerStep range(s) repeat a step number (ProfilerStep#1 x3, "
            "ProfilerStep#2 x2, ProfilerStep#3 x2, ...; 0 exact copies)",
            0) == 0);
}

TEST_CASE("torch 1.13's ProfilerStep#0 written twice keeps every iteration, numbered in order",
          "[steps]") {
  // torch <= 1.13's profile.step() opens the next range under the number of the step it closes:
  // with profile.start() recorded the trace reads #0, #0, #1, #2 (h6 D7: one iteration was
  // dropped and the trace called malformed).
  TestTrace t;
  t.step(0, 0, 100);
  t.step(0, 105, 100);
  t.step(1, 210, 100);
  t.step(2, 315, 100);
  t.finalize();
  analyzer::StepOptions keep;
  keep.drop_warmup_head = false;
  const auto r = computeSteps(t.model, keep);
  REQUIRE(r.steps.size() == 4);
  std::vector<int64_t> numbers, starts;
  for (const auto& s : r.steps) {
    numbers.push_back(s.number);
    starts.push_back(s.host_start_ns);
  }
  CHECK(numbers == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(starts == std::vector<int64_t>{0, 105'000, 210'000, 315'000});
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] ==
        "ProfilerStep#0 appears twice, then the numbers run on: torch 1.13 and older name each "
        "step's range after the step before it. All 4 ranges are kept, as steps 0..3 (the "
        "trace's ProfilerStep#k is step k+1)");
}

TEST_CASE("two recordings merged are still a repeat, even when both start at ProfilerStep#0",
          "[steps]") {
  for (const bool second_overlaps : {false, true}) {
    INFO("second #0 overlaps the first: " << second_overlaps);
    TestTrace t;
    t.step(0, 0, 100);
    t.step(1, 100, 100);
    t.step(0, second_overlaps ? 50 : 200, 100);  // #0, #1, #0, #1 or #0 twice at once
    t.step(1, 300, 100);
    t.finalize();
    analyzer::StepOptions keep;
    keep.drop_warmup_head = false;
    const auto r = computeSteps(t.model, keep);
    CHECK(r.steps.size() == 2);
    REQUIRE(r.notes.size() == 1);
    CHECK(r.notes[0].rfind("malformed trace: 2 ProfilerStep range(s) repeat a step number", 0) ==
          0);
  }
}

namespace {

// A CPU-only torch.profiler loop: `durations` (µs) per ProfilerStep, each holding `ops` ops.
TestTrace cpuLoop(const std::vector<std::pair<double, int>>& steps) {
  TestTrace t;
  double at = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto [dur, ops] = steps[i];
    t.step(static_cast<int>(i) + 1, at, dur);
    for (int k = 0; k < ops; ++k) t.op("aten::addmm", at + k * dur / ops, dur / ops / 2);
    at += dur + 5;
  }
  t.finalize();
  return t;
}

}  // namespace

TEST_CASE("CPU traces: the near-empty step the profiler closes at exit is dropped, with a note",
          "[steps]") {
  // profile.stop() closes the range the loop's last profile.step() opened (h7 D3: 0.018 ms and
  // 6 ops after 1 ms steps; it made the mean step 20 % shorter).
  TestTrace t = cpuLoop({{1000, 300}, {1100, 300}, {900, 300}, {1000, 300}, {18, 6}});
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 4);
  CHECK(r.steps.back().number == 4);
  CHECK(r.dropped_tail_steps == 1);
  REQUIRE(r.notes.size() == 1);
  CHECK(
      r.notes[0] ==
      "dropped the last step (5): 0.018 ms and 6 CPU op(s) against a median step of 1.000 ms "
      "and 300, the range the profiler closes when it stops after the loop's last profile.step(), "
      "not an iteration (--keep-tail-steps keeps it)");

  analyzer::StepOptions keep;
  keep.drop_incomplete_tail = false;
  const auto kept = computeSteps(t.model, keep);
  CHECK(kept.steps.size() == 5);
  CHECK(kept.dropped_tail_steps == 0);
  CHECK(kept.notes.empty());
}

TEST_CASE("CPU traces: a short last step that runs the loop body is kept", "[steps]") {
  SECTION("a smaller last batch: a fifth of the time, every op") {
    TestTrace t = cpuLoop({{1000, 300}, {1000, 300}, {1000, 300}, {200, 300}});
    CHECK(computeSteps(t.model).steps.size() == 4);
  }
  SECTION("short, but with a fifth of the ops") {
    TestTrace t = cpuLoop({{1000, 300}, {1000, 300}, {1000, 300}, {50, 60}});
    CHECK(computeSteps(t.model).steps.size() == 4);
  }
  SECTION("two steps of a loop are both kept") {
    TestTrace t = cpuLoop({{1000, 300}, {150, 300}});
    CHECK(computeSteps(t.model).steps.size() == 2);
  }
}

TEST_CASE("CPU traces: one iteration and the range profile.stop() closes", "[steps]") {
  // torch 1.13, schedule(active=4) over 5 iterations: one iteration recorded, then the 4 µs
  // range of the stop (tests/data/torch113/cuda_links_no_kernels). The one step before is the
  // reference: kept, both steps would average to half an iteration.
  TestTrace t = cpuLoop({{1000, 300}, {18, 6}});
  const auto r = computeSteps(t.model);
  REQUIRE(r.steps.size() == 1);
  CHECK(r.dropped_tail_steps == 1);
}

TEST_CASE("a file cut inside its last step loses that step, not the ones before it", "[steps]") {
  // h7 D7: a truncated .gz kept the step it ended in, its lost events counted as "Other".
  const auto loop = [](double last_recorded_us, bool truncated) {
    TestTrace t;
    for (int i = 0; i < 4; ++i) {
      const double at = i * 1000.0;
      t.step(i + 1, at, 995);
      const double recorded = i == 3 ? last_recorded_us : 990;
      for (double op = at + 1; op + 10 <= at + recorded; op += 10) t.op("aten::addmm", op, 9);
    }
    t.finalize();
    if (truncated) t.model.stats.add(trace::Stat::gzip_error);
    return t;
  };
  TestTrace cut = loop(300, true);
  const auto r = computeSteps(cut.model);
  REQUIRE(r.steps.size() == 3);
  CHECK(r.dropped_tail_steps == 1);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] ==
        "dropped the last step (4): the trace file ends inside it (later events lost) and its "
        "last 0.705 ms hold no recorded op (other steps: 0.015 ms) (--keep-tail-steps keeps it)");

  analyzer::StepOptions keep;
  keep.drop_incomplete_tail = false;
  CHECK(computeSteps(cut.model, keep).steps.size() == 4);
  TestTrace whole = loop(300, false);  // the same short step in a complete file
  CHECK(computeSteps(whole.model).steps.size() == 4);
  TestTrace cut_after = loop(990, true);  // the file ends after the last step's events
  CHECK(computeSteps(cut_after.model).steps.size() == 4);
}
