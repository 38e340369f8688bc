// Half-open time intervals [start, end) in ns and merged interval sets (the building block
// of every breakdown; docs/reference/peer-tools.md "Notation": merging joins intervals that
// overlap or touch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
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

  /// this ∩ [start, end): the same as intersecting with that one interval, found by binary search.
  IntervalSet clip(int64_t start, int64_t end) const;
  IntervalSet intersect(const IntervalSet& other) const;
  IntervalSet subtract(const IntervalSet& other) const;
  IntervalSet unite(const IntervalSet& other) const;

 private:
  std::vector<Interval> items_;
};

/// Collects intervals in any order for an IntervalSet, joining each with the previous one
/// when it starts inside it or where it ends. Ranges gathered in event order are mostly nested
/// or back to back (a thread's ops, a stream's kernels), so millions of them shrink to the
/// top-level ones before the set is built; the set is the same as fromUnsorted's.
class IntervalSetBuilder {
 public:
  /// Room for `n` intervals up front: regrowing a buffer of millions re-faults its pages.
  void reserve(size_t n) { items_.reserve(n); }
  void add(int64_t start, int64_t end) {
    if (end <= start) return;
    if (!items_.empty() && start >= items_.back().start && start <= items_.back().end) {
      if (end > items_.back().end) items_.back().end = end;
      return;
    }
    items_.push_back({start, end});
  }
  IntervalSet build() { return IntervalSet::fromUnsorted(std::move(items_)); }

 private:
  std::vector<Interval> items_;
};

/// The length of the union of intervals added in start order (the merge rules above), without
/// keeping them: a stream's busy time from its ops, which can be millions.
class SortedUnionLength {
 public:
  void add(int64_t start, int64_t end) {
    if (end <= start) return;
    if (in_run_ && start <= run_end_) {
      if (end > run_end_) run_end_ = end;
      return;
    }
    length_ += run_end_ - run_start_;  // 0 before the first run
    run_start_ = start;
    run_end_ = end;
    in_run_ = true;
  }
  int64_t length() const { return length_ + (run_end_ - run_start_); }

 private:
  int64_t length_ = 0, run_start_ = 0, run_end_ = 0;
  bool in_run_ = false;
};

}  // namespace steplint::analyzer
