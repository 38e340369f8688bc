#include "steplint/gui/step_alignment.h"

#include <catch2/catch.hpp>

using steplint::analyzer::Step;
using steplint::gui::AlignedSide;
using steplint::gui::alignRange;
using steplint::gui::stepRanges;
using steplint::gui::TimeRange;

namespace {

constexpr int64_t kMs = 1'000'000;

Step step(int64_t number, int64_t start_ms, int64_t dur_ms) {
  Step s;
  s.number = number;
  s.start_ns = start_ms * kMs;
  s.end_ns = (start_ms + dur_ms) * kMs;
  return s;
}

}  // namespace

TEST_CASE("step alignment: step N of one run lands on step N of the other, at the same scale") {
  // The header's worked case: A's step 3 runs 1000..1100 ms, B's 5200..5330 ms.
  const std::vector<Step> a = {step(2, 900, 100), step(3, 1000, 100), step(4, 1100, 100)};
  const std::vector<Step> b = {step(2, 5070, 130), step(3, 5200, 130), step(4, 5330, 130)};
  const AlignedSide upper{&a, {0, 2000 * kMs}};
  const AlignedSide lower{&b, {0, 6000 * kMs}};
  const TimeRange moved = alignRange(upper, lower, {1020 * kMs, 1080 * kMs});
  CHECK(moved.start_ns == 5220 * kMs);
  CHECK(moved.end_ns == 5280 * kMs);
  // Back again: the same range.
  const TimeRange back = alignRange(lower, upper, moved);
  CHECK(back.start_ns == 1020 * kMs);
  CHECK(back.end_ns == 1080 * kMs);
  // Centred in step 4: anchored on step 4, not on the step where the range starts.
  const TimeRange later = alignRange(upper, lower, {1090 * kMs, 1150 * kMs});
  CHECK(later.start_ns == (5330 - 10) * kMs);
}

TEST_CASE(
    "step alignment: steps matched by number, else by position, and no steps aligns the starts") {
  const std::vector<Step> a = {step(1, 0, 10), step(2, 10, 10)};
  const std::vector<Step> renumbered = {step(7, 100, 20), step(8, 120, 20)};
  const std::vector<Step> none;
  const AlignedSide upper{&a, {0, 30 * kMs}};
  CHECK(alignRange(upper, {&renumbered, {0, 200 * kMs}}, {12 * kMs, 18 * kMs}).start_ns ==
        122 * kMs);
  CHECK(alignRange(upper, {&none, {50 * kMs, 90 * kMs}}, {12 * kMs, 18 * kMs}).start_ns ==
        62 * kMs);
  // Before the first step: anchored on the first.
  CHECK(alignRange(upper, {&renumbered, {0, 200 * kMs}}, {-4 * kMs, 2 * kMs}).start_ns == 96 * kMs);
}

TEST_CASE("step alignment: a step shown whole on both sides, as wide as the longer one") {
  const std::vector<Step> late = {step(5, 1000, 108)};
  const std::vector<Step> waiting = {step(5, 3000, 100)};
  const auto ranges = stepRanges({&late, {0, 2000 * kMs}}, {&waiting, {0, 4000 * kMs}}, 5, 0.0);
  REQUIRE(ranges);
  CHECK(ranges->first.start_ns == 1000 * kMs);
  CHECK(ranges->first.end_ns == 1108 * kMs);
  CHECK(ranges->second.start_ns == 3000 * kMs);
  CHECK(ranges->second.end_ns == 3108 * kMs);
  // The shorter upper step: the width is still the longer one's, centred anchoring unaffected.
  const auto flipped = stepRanges({&waiting, {0, 4000 * kMs}}, {&late, {0, 2000 * kMs}}, 5, 0.05);
  REQUIRE(flipped);
  CHECK(flipped->second.start_ns == 1000 * kMs - static_cast<int64_t>(0.05 * 108 * kMs));
  CHECK(flipped->second.end_ns - flipped->second.start_ns ==
        flipped->first.end_ns - flipped->first.start_ns);
  CHECK_FALSE(stepRanges({&late, {0, 2000 * kMs}}, {&waiting, {0, 4000 * kMs}}, 6));
}
