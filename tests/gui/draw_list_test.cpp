#include "steplint/gui/draw_list.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <random>

#include "timeline_test_trace.h"

using steplint::gui::buildDrawList;
using steplint::gui::buildStepDrawList;
using steplint::gui::DrawItem;
using steplint::gui::flowLinks;
using steplint::gui::hitTestEvent;
using steplint::gui::stepAt;
using steplint::gui::TimelineGeometry;
using steplint::gui::TimelineIndex;
using steplint::test::addTrack;
using steplint::test::EventSpec;
using steplint::test::regularEvents;
using steplint::trace::EventKind;
using steplint::trace::kNoIndex;
using steplint::trace::TraceModel;
using steplint::trace::TrackKind;

namespace {

uint64_t totalCount(const std::vector<DrawItem>& items, int depth) {
  uint64_t n = 0;
  for (const DrawItem& i : items) n += i.depth == depth ? i.count : 0;
  return n;
}

}  // namespace

TEST_CASE("draw list: the header's worked example") {
  TraceModel m;
  addTrack(m, TrackKind::kCpuThread, 1, 1,
           {{0, 500, "a"},
            {600, 300, "b"},
            {1000, 800, "c"},
            {1900, 200, "d"},
            {10'000, 20'000, "wide"}});
  const TimelineIndex index(m);
  const auto items = buildDrawList(m, index, 0, TimelineGeometry{{0, 1'000'000}, 1000.0});
  REQUIRE(items.size() == 2);
  CHECK(items[0].folded());
  CHECK(items[0].count == 4);
  CHECK(items[0].x0 == Approx(0.0));
  CHECK(items[0].x1 == Approx(2.1));
  CHECK(items[1].index == 4);
  CHECK(items[1].x0 == Approx(10.0));
  CHECK(items[1].x1 == Approx(30.0));
}

TEST_CASE("draw list: a thousand tiny events fold into one item, wide events stay") {
  TraceModel m;
  auto specs = regularEvents(0, 150, 100, 1000, "tiny");  // 0.1 px each, 0.05 px gaps
  specs.push_back({500'000, 100'000, "wide"});            // 100 px
  specs.push_back({800'000, 100, "lonely"});              // tiny but far from anything
  addTrack(m, TrackKind::kGpuStream, 0, 7, specs);
  const TimelineIndex index(m);
  const auto items = buildDrawList(m, index, 0, TimelineGeometry{{0, 1'000'000}, 1000.0});
  REQUIRE(items.size() == 3);
  CHECK(items[0].folded());
  CHECK(items[0].count == 1000);
  REQUIRE(items[0].first < m.events.size());  // the fold is tinted by its first event
  CHECK(m.events[items[0].first].start_ns == 0);
  CHECK(m.str(m.events[items[0].first].name) == "tiny");
  CHECK(items[0].x1 == Approx(149.95).margin(0.01));
  CHECK_FALSE(items[1].folded());
  CHECK(m.str(m.events[items[1].index].name) == "wide");
  // A single narrow event is still drawn as itself (clickable, coloured), not as a fold.
  CHECK_FALSE(items[2].folded());
  CHECK(m.str(m.events[items[2].index].name) == "lonely");
  CHECK(totalCount(items, 0) == 1002);

  // Zoomed in on the tiny ones, they are drawn one by one.
  const auto close = buildDrawList(m, index, 0, TimelineGeometry{{0, 3'000}, 1000.0});
  CHECK(close.size() == 20);
  for (const DrawItem& i : close) CHECK_FALSE(i.folded());
}

TEST_CASE("draw list: only visible events are emitted, found by binary search") {
  TraceModel m;
  addTrack(m, TrackKind::kCpuThread, 1, 1,
           regularEvents(0, 20'000, 10'000, 5000, "op"));  // 0..100 ms
  const TimelineIndex index(m);
  const TimelineGeometry g{{10'005'000, 11'005'000}, 1000.0};  // 1 ms, 1 µs per px: 10 px boxes
  const auto items = buildDrawList(m, index, 0, g);
  REQUIRE(items.size() == 51);  // the one reaching in from the left, then 50 more
  CHECK(items.front().index == 500);
  CHECK(items.front().x0 == Approx(-5.0));
  CHECK(items.back().index == 550);
  for (const DrawItem& i : items) CHECK(i.x1 - i.x0 == Approx(10.0));
  CHECK(buildDrawList(m, index, 0, TimelineGeometry{{200'000'000, 300'000'000}, 1000.0}).empty());
}

TEST_CASE("draw list: children are drawn under wide parents, not under folded ones") {
  TraceModel m;
  std::vector<EventSpec> specs = {{0, 500'000, "parent", EventKind::kUserAnnotation, 0},
                                  {100'000, 100'000, "child", EventKind::kCpuOp, 1},
                                  {600'000, 1'000, "small parent", EventKind::kCpuOp, 0},
                                  {600'100, 100, "hidden child", EventKind::kCpuOp, 1}};
  addTrack(m, TrackKind::kCpuThread, 1, 1, specs);
  const TimelineIndex index(m);
  const auto items = buildDrawList(m, index, 0, TimelineGeometry{{0, 1'000'000}, 1000.0});
  REQUIRE(items.size() == 3);
  CHECK(items[0].depth == 0);
  CHECK(items[1].depth == 0);  // the small parent (1 px): depth 0 is finished before depth 1
  CHECK(items[2].depth == 1);
  CHECK(m.str(m.events[items[2].index].name) == "child");
}

TEST_CASE("draw list: far zoom over a million events stays cheap and counts every event") {
  TraceModel m;
  addTrack(m, TrackKind::kGpuStream, 0, 7,
           regularEvents(0, 1'000, 600, 1'000'000, "k", 0, EventKind::kKernel));
  const TimelineIndex index(m);
  const TimelineGeometry full{{0, 1'000'000'000}, 1600.0};
  const auto t0 = std::chrono::steady_clock::now();
  const auto items = buildDrawList(m, index, 0, full);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(items.size() == 1);  // gaps of 0.4 ns never separate anything at 625 µs per px
  CHECK(totalCount(items, 0) == 1'000'000);
  CHECK(ms < 50.0);  // O(width · log n), not O(n); typically well under 1 ms
}

TEST_CASE("draw list: odd inputs do not crash") {
  TraceModel m;
  addTrack(m, TrackKind::kCpuThread, 1, 1, {});
  addTrack(m, TrackKind::kCpuThread, 1, 2,
           {{5, 0, "zero"}, {5, 0, "zero again"}, {10, 0, "z", EventKind::kCpuOp, 65535}});
  const TimelineIndex index(m);
  const TimelineGeometry g{{0, 100}, 500.0};
  CHECK(buildDrawList(m, index, 0, g).empty());
  CHECK(totalCount(buildDrawList(m, index, 1, g), 0) == 2);
  CHECK(buildDrawList(m, index, 99, g).empty());  // unknown track
  CHECK(buildDrawList(m, index, 1, TimelineGeometry{{50, 50}, 0.0}).empty());
  CHECK(hitTestEvent(m, index, 1, 0, {4, 6}) != kNoIndex);
  CHECK(hitTestEvent(m, index, 1, 7, {4, 6}) == kNoIndex);
  CHECK(hitTestEvent(m, index, 0, 0, {4, 6}) == kNoIndex);
}

TEST_CASE("draw list: hit-testing picks the event under the point") {
  TraceModel m;
  addTrack(m, TrackKind::kCpuThread, 1, 1, regularEvents(0, 1'000, 500, 100, "op"));
  const TimelineIndex index(m);
  CHECK(hitTestEvent(m, index, 0, 0, {10'100, 10'300}) == 10);
  CHECK(hitTestEvent(m, index, 0, 0, {10'700, 10'800}) == kNoIndex);  // in a gap
  CHECK(hitTestEvent(m, index, 0, 0, {10'400, 10'700}) == 10);        // the window reaches it
}

TEST_CASE("draw list: steps fold like events") {
  std::vector<steplint::analyzer::Step> steps(3);
  for (int i = 0; i < 3; ++i) {
    steps[static_cast<size_t>(i)].number = i;
    steps[static_cast<size_t>(i)].start_ns = i * 1'000'000;
    steps[static_cast<size_t>(i)].end_ns = i * 1'000'000 + 900'000;
  }
  CHECK(buildStepDrawList(steps, TimelineGeometry{{0, 3'000'000}, 300.0}).size() == 3);
  const auto far = buildStepDrawList(steps, TimelineGeometry{{0, 3'000'000'000}, 300.0});
  REQUIRE(far.size() == 1);
  CHECK(far[0].count == 3);
}

TEST_CASE("draw list: flow links follow Event::link both ways") {
  const auto trace = steplint::test::smallTrace();
  const TraceModel& m = trace->model;
  const uint32_t conv = steplint::test::firstNamed(m, "aten::conv2d");
  const uint32_t launch = steplint::test::firstNamed(m, "cudaLaunchKernel");
  const uint32_t kernel = steplint::test::firstNamed(m, "volta_sgemm");
  using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;
  CHECK(flowLinks(m, kernel) ==
        Pairs{{launch, kernel}, {conv, launch}});  // upstream from a device op
  CHECK(flowLinks(m, launch) == Pairs{{conv, launch}, {launch, kernel}});
  CHECK(flowLinks(m, conv) == Pairs{{conv, launch}, {launch, kernel}});  // downstream from a CPU op
  CHECK(flowLinks(m, kNoIndex).empty());
  CHECK(flowLinks(m, kernel, 1).size() == 1);
}

TEST_CASE("draw list: stepAt finds the step holding a time") {
  std::vector<steplint::analyzer::Step> steps(2);
  steps[0].start_ns = 100;
  steps[0].end_ns = 200;
  steps[1].start_ns = 300;
  steps[1].end_ns = 400;
  CHECK(stepAt(steps, 50) == kNoIndex);
  CHECK(stepAt(steps, 100) == 0);
  CHECK(stepAt(steps, 250) == kNoIndex);
  CHECK(stepAt(steps, 399) == 1);
  CHECK(stepAt(steps, 400) == kNoIndex);
  CHECK(stepAt({}, 0) == kNoIndex);
}

TEST_CASE("draw list: folding accounts for every visible event exactly once (random lanes)") {
  std::mt19937_64 rng(6);
  for (int round = 0; round < 200; ++round) {
    TraceModel m;
    std::vector<EventSpec> specs;
    int64_t t = static_cast<int64_t>(rng() % 1000);
    const int n = 1 + static_cast<int>(rng() % 3000);
    for (int i = 0; i < n; ++i) {
      // Mostly tiny events, some long ones, some zero-length, gaps from 0 to long.
      const uint64_t r = rng() % 100;
      const uint64_t dur_limit = r < 5 ? 1 : (r < 90 ? 2000 : 2'000'000);
      const auto dur = static_cast<int64_t>(rng() % dur_limit);
      specs.push_back({t, dur, "e"});
      t += dur + (rng() % 10 == 0 ? static_cast<int64_t>(rng() % 500'000)
                                  : static_cast<int64_t>(rng() % 300));
    }
    addTrack(m, TrackKind::kGpuStream, 0, 1, specs);
    const TimelineIndex index(m);
    const int64_t a = static_cast<int64_t>(rng() % static_cast<uint64_t>(t + 1));
    const int64_t b = a + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(t + 1));
    const TimelineGeometry g{{a, b}, 100.0 + static_cast<double>(rng() % 2000)};
    const auto items = buildDrawList(m, index, 0, g);
    uint64_t expected = 0;
    for (const auto& e : m.events)
      expected += (e.start_ns >= a || e.end_ns() > a) && e.start_ns < b ? 1 : 0;
    INFO("round " << round << " events " << n << " range " << a << ".." << b);
    CHECK(totalCount(items, 0) == expected);
    for (size_t i = 1; i < items.size(); ++i) CHECK(items[i].x0 >= items[i - 1].x1 - 1e-3f);
    for (const DrawItem& item : items) {
      CHECK(item.x1 >= item.x0);
      if (!item.folded()) CHECK(item.count == 1);
    }
  }
}
