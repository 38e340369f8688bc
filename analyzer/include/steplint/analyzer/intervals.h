// Half-open time intervals [start, end) in ns and merged interval sets (the building block
// of every breakdown; reference-analyses.md "Notation": merging joins intervals that
// overlap or touch).
#pragma once

#include <cstdint>
#include <vector>

namespace steplint::analyzer {

struct Interval {
  int64_t start = 0;
  int64_t end = 0;
  int64_t length() const { return end > start ? end - start : 0; }
};

/// A sorted list of disjoint, non-touching intervals.
class IntervalSet {
 public:
  IntervalSet() = default;
  /// Builds from arbitrary (unsorted, overlapping) intervals; empty ones are dropped.
  static IntervalSet fromUnsorted(std::vector<Interval> intervals);

  const std::vector<Interval>& intervals() const { return items_; }
  bool empty() const { return items_.empty(); }
  int64_t length() const;
  /// |this ∩ [start, end)|
  int64_t overlapLength(int64_t start, int64_t end) const;

  IntervalSet intersect(const IntervalSet& other) const;
  IntervalSet subtract(const IntervalSet& other) const;
  IntervalSet unite(const IntervalSet& other) const;

 private:
  std::vector<Interval> items_;
};

}  // namespace steplint::analyzer
