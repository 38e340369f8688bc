#include "steplint/gui/timeline_geometry.h"

#include <catch2/catch.hpp>

using steplint::gui::formatDuration;
using steplint::gui::rulerTicks;
using steplint::gui::TimelineGeometry;
using steplint::gui::TimeRange;

TEST_CASE("timeline geometry: ns and px round-trip") {
  const TimelineGeometry g{{1'000'000, 2'000'000}, 1000.0};  // 1 µs per px
  CHECK(g.nsPerPx() == Approx(1000.0));
  CHECK(g.xOf(1'500'000) == Approx(500.0));
  CHECK(g.nsAt(250.0) == 1'250'000);
  for (int64_t t : {1'000'000LL, 1'234'000LL, 1'999'000LL}) CHECK(g.nsAt(g.xOf(t)) == t);
  const TimelineGeometry odd{{-5'000, 7'777'777}, 1333.0};
  for (int64_t t : {-5'000LL, 0LL, 3'141'592LL}) CHECK(std::llabs(odd.nsAt(odd.xOf(t)) - t) <= 1);
}

TEST_CASE("timeline geometry: zooming keeps the time under the anchor") {
  const TimelineGeometry g{{0, 10'000'000}, 800.0};
  for (double anchor : {0.0, 123.0, 400.0, 799.0}) {
    const int64_t before = g.nsAt(anchor);
    for (double factor : {0.5, 0.8, 1.25, 3.0}) {
      const TimelineGeometry z{g.zoomed(anchor, factor), 800.0};
      CHECK(z.spanNs() == Approx(10'000'000 * factor).epsilon(1e-6));
      CHECK(std::llabs(z.nsAt(anchor) - before) <= 1);
    }
  }
  // Zooming in forever bottoms out at 1 ns instead of an empty or inverted range.
  TimelineGeometry deep = g;
  for (int i = 0; i < 200; ++i) deep.range = deep.zoomed(400.0, 0.5);
  CHECK(deep.spanNs() >= 1);
  CHECK(deep.range.end_ns > deep.range.start_ns);
}

TEST_CASE("timeline geometry: pan, between and hit windows") {
  const TimelineGeometry g{{0, 1'000'000}, 1000.0};
  const TimeRange p = g.panned(100.0);
  CHECK(p.start_ns == 100'000);
  CHECK(p.end_ns == 1'100'000);
  const TimeRange b = g.between(300.0, 200.0);
  CHECK(b.start_ns == 200'000);
  CHECK(b.end_ns == 300'000);
  const TimeRange h = g.hitWindow(500.0, 2.0);
  CHECK(h.start_ns == 498'000);
  CHECK(h.end_ns == 502'000);
}

TEST_CASE("timeline geometry: ruler ticks are round, monotone and in a sensible unit") {
  auto check = [](TimeRange range, double width, int64_t origin, const std::string& unit) {
    const auto ticks = rulerTicks(range, width, origin);
    INFO("range " << range.start_ns << ".." << range.end_ns);
    CHECK(ticks.unit == unit);
    REQUIRE(ticks.ticks.size() >= 2);
    CHECK(ticks.ticks.size() <= static_cast<size_t>(width / 90.0) + 2);
    for (size_t i = 0; i < ticks.ticks.size(); ++i) {
      CHECK(ticks.ticks[i].ns >= range.start_ns);
      CHECK(ticks.ticks[i].ns <= range.end_ns);
      CHECK((ticks.ticks[i].ns - origin) % ticks.step_ns == 0);
      if (i > 0) CHECK(ticks.ticks[i].x > ticks.ticks[i - 1].x);
    }
  };
  check({0, 10'000'000}, 1000.0, 0, "ms");  // 10 ms over 1000 px: 1 ms steps
  check({5'000'000'000, 65'000'000'000}, 1600.0, 5'000'000'000, "s");
  check({1'000'000, 1'005'000}, 1200.0, 1'000'000, "µs");
  check({100, 900}, 1000.0, 0, "ns");
  const auto ms = rulerTicks({0, 10'000'000}, 1000.0, 0);
  CHECK(ms.step_ns == 1'000'000);
  CHECK(ms.ticks.front().label == "0");
  CHECK(ms.ticks.back().label == "10");
  // Half-unit steps get one decimal; labels count from the origin (the trace start).
  const auto half = rulerTicks({2'000'000, 4'000'000}, 1000.0, 1'000'000, 180.0);
  CHECK(half.step_ns == 500'000);
  CHECK(half.unit == "ms");
  CHECK(half.ticks.front().label == "1.0");
  CHECK(half.ticks[1].label == "1.5");
  // Deep in a long trace the unit follows the position, the decimals the step.
  const auto deep = rulerTicks({426'200'000, 426'600'000}, 1600.0, 0);
  CHECK(deep.unit == "ms");
  CHECK(deep.step_ns == 50'000);
  CHECK(deep.ticks.front().label == "426.20");
  CHECK(deep.ticks[1].label == "426.25");
}

TEST_CASE("timeline geometry: durations are printed with a unit") {
  CHECK(formatDuration(450) == "450 ns");
  CHECK(formatDuration(1'234'000) == "1.23 ms");
  CHECK(formatDuration(25'500) == "25.5 µs");
  CHECK(formatDuration(2'500'000'000) == "2.50 s");
  CHECK(formatDuration(0) == "0 ns");
}
