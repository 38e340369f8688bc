#include "steplint/analyzer/intervals.h"

#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>

using steplint::analyzer::Interval;
using steplint::analyzer::IntervalSet;
using steplint::analyzer::SortedUnionLength;

namespace {

std::vector<std::pair<int64_t, int64_t>> pairs(const IntervalSet& s) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const Interval& i : s.intervals()) out.emplace_back(i.start, i.end);
  return out;
}

using Pairs = std::vector<std::pair<int64_t, int64_t>>;

}  // namespace

TEST_CASE("IntervalSet merges overlapping and touching intervals, drops empty ones",
          "[intervals]") {
  const IntervalSet s = IntervalSet::fromUnsorted(
      {{30, 40}, {0, 10}, {10, 20}, {5, 8}, {50, 50}, {60, 55}, {39, 45}});
  CHECK(pairs(s) == Pairs{{0, 20}, {30, 45}});
  CHECK(s.length() == 35);
  CHECK(IntervalSet::fromUnsorted({}).empty());
}

TEST_CASE("IntervalSet overlapLength clips to the query range", "[intervals]") {
  const IntervalSet s = IntervalSet::fromUnsorted({{0, 10}, {20, 30}, {40, 50}});
  CHECK(s.overlapLength(5, 45) == 5 + 10 + 5);
  CHECK(s.overlapLength(10, 20) == 0);
  CHECK(s.overlapLength(-100, 100) == 30);
  CHECK(s.overlapLength(25, 25) == 0);
  CHECK(s.overlapLength(60, 70) == 0);
}

TEST_CASE("IntervalSet intersect, subtract and unite", "[intervals]") {
  const IntervalSet a = IntervalSet::fromUnsorted({{0, 10}, {20, 30}, {40, 50}});
  const IntervalSet b = IntervalSet::fromUnsorted({{5, 25}, {45, 60}});
  CHECK(pairs(a.intersect(b)) == Pairs{{5, 10}, {20, 25}, {45, 50}});
  CHECK(pairs(a.subtract(b)) == Pairs{{0, 5}, {25, 30}, {40, 45}});
  CHECK(pairs(b.subtract(a)) == Pairs{{10, 20}, {50, 60}});
  CHECK(pairs(a.unite(b)) == Pairs{{0, 30}, {40, 60}});
  // One interval cut into several pieces by many small holes.
  const IntervalSet wide = IntervalSet::fromUnsorted({{0, 100}});
  const IntervalSet holes = IntervalSet::fromUnsorted({{10, 20}, {30, 40}, {90, 120}});
  CHECK(pairs(wide.subtract(holes)) == Pairs{{0, 10}, {20, 30}, {40, 90}});
  CHECK(wide.subtract(wide).empty());
  CHECK(wide.intersect(IntervalSet()).empty());
}

TEST_CASE("IntervalSet: intersection and difference partition the set", "[intervals]") {
  const IntervalSet a = IntervalSet::fromUnsorted({{0, 7}, {9, 31}, {33, 64}, {70, 71}});
  const IntervalSet b = IntervalSet::fromUnsorted({{3, 12}, {14, 15}, {30, 40}, {60, 80}});
  CHECK(a.intersect(b).length() + a.subtract(b).length() == a.length());
  CHECK(a.unite(b).length() == a.length() + b.length() - a.intersect(b).length());
}

namespace {

// The reference: one full sort by start, then merging (what fromUnsorted always did).
Pairs mergedBySort(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  Pairs out;
  for (const Interval& i : v) {
    if (i.end <= i.start) continue;
    if (!out.empty() && i.start <= out.back().second)
      out.back().second = std::max(out.back().second, i.end);
    else
      out.emplace_back(i.start, i.end);
  }
  return out;
}

// `runs` sorted runs of nested, overlapping, touching and empty intervals, like the events of
// several tracks collected in event order.
std::vector<Interval> sortedRuns(size_t runs, size_t per_run, uint32_t seed) {
  std::vector<Interval> v;
  uint32_t x = seed;
  auto next = [&x] { return x = x * 1664525u + 1013904223u; };
  for (size_t r = 0; r < runs; ++r) {
    int64_t t = static_cast<int64_t>(next() % 1000);
    for (size_t i = 0; i < per_run; ++i) {
      t += static_cast<int64_t>(next() % 50);
      v.push_back({t, t + static_cast<int64_t>(next() % 80) - 5});
    }
  }
  return v;
}

}  // namespace

TEST_CASE("IntervalSet fromUnsorted merges sorted runs to the same set as a full sort",
          "[intervals]") {
  for (size_t runs : {1, 2, 3, 7, 64, 1500}) {
    for (uint32_t seed : {1u, 2u, 3u}) {
      const std::vector<Interval> v = sortedRuns(runs, runs > 100 ? 3 : 200, seed);
      INFO("runs " << runs << " seed " << seed);
      CHECK(pairs(IntervalSet::fromUnsorted(v)) == mergedBySort(v));
    }
  }
}

TEST_CASE("clip keeps the part of a set between two times, as intersect with that interval") {
  const IntervalSet set = IntervalSet::fromUnsorted({{0, 10}, {20, 30}, {40, 50}});
  const IntervalSet clipped = set.clip(5, 45);
  REQUIRE(clipped.intervals().size() == 3);
  CHECK(clipped.intervals()[0].start == 5);
  CHECK(clipped.intervals()[0].end == 10);
  CHECK(clipped.intervals()[1].start == 20);
  CHECK(clipped.intervals()[2].end == 45);
  CHECK(clipped.length() == set.intersect(IntervalSet::fromUnsorted({{5, 45}})).length());
  CHECK(set.clip(10, 20).empty());  // only the gap between two intervals
  CHECK(set.clip(30, 30).empty());
}

TEST_CASE("SortedUnionLength sums a start-ordered union without keeping it") {
  SortedUnionLength u;
  CHECK(u.length() == 0);
  u.add(0, 10);
  u.add(2, 5);    // inside
  u.add(10, 20);  // touching
  u.add(25, 25);  // empty
  u.add(30, 40);
  u.add(35, 45);  // overlapping
  CHECK(u.length() == 20 + 15);
}
