#include "steplint/analyzer/idle.h"

#include <catch2/catch.hpp>

#include "test_model.h"

using namespace steplint;
using test::TestTrace;

TEST_CASE("gaps are host wait, kernel wait or other (HTA)", "[idle]") {
  TestTrace t;
  t.launch(0, 1, 0, 10);     // k1 [0,10)
  t.launch(2, 1, 15, 5);     // k2 [15,20): launched before k1 ended, gap 5 < 30 -> kernel wait
  t.launch(50, 1, 60, 10);   // k3 [60,70): launched at 50 after k2 ended at 20 -> host wait 40
  t.launch(55, 1, 200, 10);  // k4 [200,210): launched before k3 ended, gap 130 -> other
  t.launch(56, 1, 205, 10);  // k5 [205,215): overlaps k4 -> no idle time
  t.orphanKernel(300, 10);   // k6 [300,310): no launch call, gap 85 -> other (never host wait)
  t.event(trace::EventKind::kCudaSync, "Stream Sync", 100, 50, TestTrace::kDevice,
          TestTrace::kStream);  // ignored
  t.finalize();
  const auto idle = analyzer::computeIdleBreakdown(t.model);
  REQUIRE(idle.size() == 1);
  const auto& s = idle[0];
  CHECK(s.device == 0);
  CHECK(s.stream == 7);
  CHECK(s.kernel_wait_ns == 5'000);
  CHECK(s.host_wait_ns == 40'000);
  CHECK(s.other_ns == 130'000 + 85'000);
  CHECK(s.span_ns == 310'000);
  CHECK(s.busy_ns == 10'000 + 5'000 + 10'000 + 15'000 + 10'000);
  CHECK(s.idle_ns() == 260'000);
}

TEST_CASE("the kernel-wait threshold is configurable", "[idle]") {
  TestTrace t;
  t.launch(0, 1, 0, 10);
  t.launch(2, 1, 15, 5);  // gap 5 µs
  t.finalize();
  analyzer::IdleOptions strict;
  strict.kernel_wait_threshold_ns = 1'000;
  const auto idle = analyzer::computeIdleBreakdown(t.model, strict);
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].kernel_wait_ns == 0);
  CHECK(idle[0].other_ns == 5'000);
}

TEST_CASE("streams and devices are reported separately", "[idle]") {
  TestTrace t;
  t.orphanKernel(0, 10, "a", 7, 0);
  t.orphanKernel(0, 10, "b", 8, 0);
  t.orphanKernel(0, 10, "c", 7, 1);
  t.finalize();
  const auto idle = analyzer::computeIdleBreakdown(t.model);
  REQUIRE(idle.size() == 3);
  CHECK(idle[0].device == 0);
  CHECK(idle[0].stream == 7);
  CHECK(idle[1].stream == 8);
  CHECK(idle[2].device == 1);
  CHECK(idle[2].idle_ns() == 0);
}

TEST_CASE("busy time is the union of a stream's ops", "[idle]") {
  TestTrace t;
  t.orphanKernel(0, 10);   // [0,10)
  t.orphanKernel(2, 3);    // [2,5): inside the first, counted once
  t.orphanKernel(10, 10);  // [10,20): touches the first
  t.orphanKernel(25, 0);   // empty: no busy time
  t.orphanKernel(30, 10);  // [30,40)
  t.orphanKernel(35, 10);  // [35,45): overlaps the previous one
  t.finalize();
  const auto idle = analyzer::computeIdleBreakdown(t.model);
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].busy_ns == 20'000 + 15'000);
  CHECK(idle[0].span_ns == 45'000);
}

TEST_CASE("ops that start together are taken shortest first, as a sort by start and end",
          "[idle]") {
  TestTrace t;
  t.orphanKernel(0, 10);   // [0,10): the track holds it first (longer first)
  t.orphanKernel(0, 5);    // [0,5)
  t.orphanKernel(20, 10);  // [20,30): 10 µs after [0,10), 15 after [0,5)
  t.finalize();
  const auto idle = analyzer::computeIdleBreakdown(t.model);
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].kernel_wait_ns == 10'000);
  CHECK(idle[0].other_ns == 0);
  CHECK(idle[0].span_ns == 30'000);
}

TEST_CASE("a large group of ops at one start is ordered by end too", "[idle]") {
  TestTrace t;
  for (int d = 1; d <= 40; ++d) t.orphanKernel(0, d);  // more than the small-group sort takes
  t.orphanKernel(100, 10);  // 60 µs after the longest, 99 after the shortest
  t.finalize();
  const auto idle = analyzer::computeIdleBreakdown(t.model);
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].other_ns == 60'000);
  CHECK(idle[0].kernel_wait_ns == 0);
  CHECK(idle[0].busy_ns == 50'000);
}
