// Step windows (analyzer/src/step_windows.h): disjoint windows that each hold whole steps, and
// the events overlapping each window, visited once per window they overlap.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "step_windows.h"
#include "test_model.h"

using steplint::analyzer::Step;
using steplint::analyzer::stepWindows;
using steplint::analyzer::WindowEvents;
using steplint::test::TestTrace;

namespace {

Step step(int64_t start, int64_t end) {
  Step s;
  s.start_ns = start;
  s.end_ns = end;
  return s;
}

}  // namespace

TEST_CASE("step windows: groups of consecutive steps, in time order, disjoint") {
  // Given out of start order; the third reaches into the fourth (device work past its end).
  const std::vector<Step> steps = {step(100, 200), step(0, 100), step(200, 310), step(300, 400),
                                   step(400, 500)};
  const auto windows = stepWindows(steps, 3);  // two steps per window
  REQUIRE(windows.size() == 3);
  CHECK(windows[0].steps == std::vector<size_t>{1, 0});
  CHECK(windows[0].start == 0);
  CHECK(windows[0].end == 200);
  CHECK(windows[1].steps == std::vector<size_t>{2, 3});
  CHECK(windows[1].start == 200);
  CHECK(windows[1].end == 400);
  CHECK(windows[2].steps == std::vector<size_t>{4});
  CHECK(windows[2].end == 500);
  // One step per window, except that step 3 starts before step 2 ends: they share one.
  const auto single = stepWindows(steps, 100);
  REQUIRE(single.size() == 4);
  CHECK(single[2].steps == std::vector<size_t>{2, 3});
  CHECK(single[2].end == 400);
  CHECK(single[3].start == 400);
  CHECK(stepWindows(steps, 1).size() == 1);
  CHECK(stepWindows({}, 8).empty());
}

TEST_CASE("window events: each event once per window it overlaps, none from the gaps") {
  TestTrace t;
  t.op("outer", 0, 100);  // [0, 100) µs: spans both windows below
  t.op("first", 10, 5);
  t.op("ends_at_second_start", 20, 30);  // [20, 50): ends where the second window starts
  t.op("in_gap", 42, 3);                 // [42, 45): between the windows
  t.op("second", 60, 10);
  t.orphanKernel(55, 60);  // another track, [55, 115): runs past the second window
  t.finalize();
  WindowEvents events(t.model);
  const auto names = [&](int64_t start, int64_t end) {
    std::vector<std::string> out;
    events.forEach(start, end,
                   [&](const steplint::trace::Event& e) { out.emplace_back(t.model.name(e)); });
    std::sort(out.begin(), out.end());
    return out;
  };
  CHECK(names(0, 40'000) == std::vector<std::string>{"ends_at_second_start", "first", "outer"});
  CHECK(names(50'000, 80'000) == std::vector<std::string>{"kernel_orphan", "outer", "second"});
  CHECK(names(110'000, 120'000) == std::vector<std::string>{"kernel_orphan"});
  CHECK(names(200'000, 300'000).empty());
}
