// ProfilerStep ranges as torch 1.13 writes them: inside other ProfilerStep ranges (a profiler
// entered inside another's loop) and the one profile.stop() closes (tests/data/torch113/record.py).
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fixtures.h"
#include "steplint/analyzer/steps.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/importer.h"
#include "test_model.h"

using namespace steplint;
using analyzer::computeSteps;
using analyzer::StepSource;
using test::TestTrace;

namespace {

analyzer::StepOptions keepAll() {
  analyzer::StepOptions keep;
  keep.drop_warmup_head = false;
  keep.drop_incomplete_tail = false;
  return keep;
}

std::vector<int64_t> numbers(const analyzer::StepResult& r) {
  std::vector<int64_t> out;
  for (const auto& s : r.steps) out.push_back(s.number);
  return out;
}

std::vector<int64_t> startsUs(const analyzer::StepResult& r) {
  std::vector<int64_t> out;
  for (const auto& s : r.steps) out.push_back(s.host_start_ns / 1000);
  return out;
}

}  // namespace

TEST_CASE("ProfilerStep ranges nested in another's are an inner profiler's, not steps", "[steps]") {
  // torch 1.13: the training profiler's #0, #0, #1, each holding an evaluation profiler's
  // #0, #0, #1 (never recording, so only named).
  TestTrace t;
  t.step(0, 0, 100);
  t.step(0, 60, 10);
  t.step(0, 75, 10);
  t.step(1, 90, 5);
  t.step(0, 105, 100);
  t.step(0, 160, 10);
  t.step(0, 175, 10);
  t.step(1, 190, 15);  // ends with its step: still inside
  t.step(1, 210, 100);
  t.finalize();
  const auto r = computeSteps(t.model, keepAll());
  CHECK(r.source == StepSource::kProfilerStep);
  CHECK(numbers(r) == std::vector<int64_t>{0, 1, 2});
  CHECK(startsUs(r) == std::vector<int64_t>{0, 105, 210});
  REQUIRE(r.notes.size() == 2);
  CHECK(r.notes[0] ==
        "6 ProfilerStep range(s) inside another ProfilerStep range of the same thread are not "
        "steps: a profiler entered inside another's loop (e.g. around an evaluation) names its "
        "own iterations ProfilerStep#N too");
  CHECK(r.notes[1].rfind("ProfilerStep#0 appears twice, then the numbers run on", 0) == 0);
}

TEST_CASE("copies, partial overlaps and other threads' ProfilerStep ranges are not nested",
          "[steps]") {
  TestTrace t;
  t.step(1, 0, 100);
  t.step(1, 0, 100);   // an exact copy: a repeat, reported
  t.step(2, 50, 100);  // overlaps #1 but ends after it: a repeat of nothing, kept
  t.annotation("ProfilerStep#3", 10, 20, 2);  // inside #1 in time, on another thread
  t.finalize();
  const auto r = computeSteps(t.model, keepAll());
  CHECK(numbers(r) == std::vector<int64_t>{1, 3, 2});
  REQUIRE(r.notes.size() == 3);
  CHECK(r.notes[0].rfind(
            "malformed trace: 1 ProfilerStep range(s) repeat a step number (ProfilerStep#1 x2; "
            "1 exact copies)",
            0) == 0);
  // The overlapping ranges count from #1's end: no microsecond twice.
  CHECK(r.notes[1].rfind("2 ProfilerStep range(s) start before the previous one ends", 0) == 0);
  CHECK(r.notes[2] ==
        "1 step(s) (3) end, GPU work and host range, before the previous step ends: counted as "
        "0 ns");
  REQUIRE(r.steps.size() == 3);
  CHECK(r.steps[0].duration_ns() == 100'000);
  CHECK(r.steps[1].duration_ns() == 0);
  CHECK(r.steps[2].start_ns == 100'000);  // #2 ran on to 150 µs
  CHECK(r.steps[2].duration_ns() == 50'000);
}

TEST_CASE("torch 1.13: an evaluation profiler inside the training loop loses no iteration",
          "[steps][torch113]") {
  trace::TraceModel model;
  const auto status = trace::importTraceFile(
      test::testDataPath("torch113/steps_nested_eval_profiler.json.gz"), model);
  INFO(status.message);
  REQUIRE(status.ok());
  CHECK(model.metadata.legacy_profiler_export);
  // 5 iterations; the range profile.stop() closes after the last profile.step() is kept here.
  const auto all = computeSteps(model, keepAll());
  CHECK(numbers(all) == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  for (const auto& note : all.notes) CHECK(note.find("malformed") == std::string::npos);
  REQUIRE(all.notes.size() == 2);
  CHECK(all.notes[0].rfind("15 ProfilerStep range(s) inside another ProfilerStep range", 0) == 0);
  // Defaults: iteration 0 (start-up) and the closing range go; iterations 1..4 stay.
  const auto r = computeSteps(model, {});
  CHECK(numbers(r) == std::vector<int64_t>{1, 2, 3, 4});
  for (const auto& s : r.steps) {
    CHECK(s.duration_ns() > 300'000);  // an iteration, not an evaluation's 4 µs range
    CHECK(s.duration_ns() < 5'000'000);
  }
}

TEST_CASE("torch 1.13: the first cycle of a repeating schedule keeps its three iterations",
          "[steps][torch113]") {
  trace::TraceModel model;
  const auto status = trace::importTraceFile(
      test::testDataPath("torch113/steps_repeat_first_cycle.json.gz"), model);
  INFO(status.message);
  REQUIRE(status.ok());
  const auto r = computeSteps(model, keepAll());
  CHECK(numbers(r) == std::vector<int64_t>{0, 1, 2});
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].rfind("ProfilerStep#0 appears twice, then the numbers run on", 0) == 0);
}

TEST_CASE("torch 1.13: of two steps, the range profile.stop() closes is not an iteration",
          "[steps][torch113]") {
  // use_cuda's export without Kineto (record.py, cuda_links_no_kernels): one recorded
  // iteration, ProfilerStep#3, then the 4 µs range the profiler closes when it stops.
  trace::TraceModel model;
  const auto status =
      trace::importTraceFile(test::testDataPath("torch113/cuda_links_no_kernels.json.gz"), model);
  INFO(status.message);
  REQUIRE(status.ok());
  CHECK(numbers(computeSteps(model, keepAll())) == std::vector<int64_t>{3, 4});
  const auto r = computeSteps(model, {});
  CHECK(numbers(r) == std::vector<int64_t>{3});
  CHECK(r.dropped_tail_steps == 1);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].rfind("dropped the last step (4): 0.004 ms and 1 CPU op(s) against a median "
                         "step of ",
                         0) == 0);

  // No kernel in the file, and the summary says why rather than "no GPU activity".
  const auto s = analyzer::summarize(model);
  CHECK(std::count(s.notes.begin(), s.notes.end(),
                   "no GPU kernels in this trace (the legacy profiler's export links 133 ops to "
                   "CUDA work but writes no kernels): GPU summary, idle time and kernel tables "
                   "not computed; torch.profiler on a torch built with Kineto, or steplint "
                   "record, records them") == 1);
}
