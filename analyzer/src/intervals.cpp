#include "steplint/analyzer/intervals.h"

#include <algorithm>

namespace steplint::analyzer {
namespace {

// Appends [start, end) to a sorted list, joining it with the last interval when they overlap
// or touch (tb_plugin's merge_ranges: `start <= last_end`).
void appendMerged(std::vector<Interval>& out, int64_t start, int64_t end) {
  if (end <= start) return;
  if (!out.empty() && start <= out.back().end) {
    out.back().end = std::max(out.back().end, end);
    return;
  }
  out.push_back({start, end});
}

}  // namespace

IntervalSet IntervalSet::fromUnsorted(std::vector<Interval> intervals) {
  const auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  // Events of one stream or thread arrive sorted already; checking is cheaper than sorting.
  if (!std::is_sorted(intervals.begin(), intervals.end(), by_start))
    std::sort(intervals.begin(), intervals.end(), by_start);
  IntervalSet set;
  set.items_.reserve(intervals.size());
  for (const Interval& i : intervals) appendMerged(set.items_, i.start, i.end);
  set.items_.shrink_to_fit();
  return set;
}

int64_t IntervalSet::length() const {
  int64_t total = 0;
  for (const Interval& i : items_) total += i.length();
  return total;
}

int64_t IntervalSet::overlapLength(int64_t start, int64_t end) const {
  if (end <= start) return 0;
  // First interval that ends after `start`; items are sorted by both start and end.
  auto it =
      std::upper_bound(items_.begin(), items_.end(), start, [](int64_t t, const Interval& i) { return t < i.end; });
  int64_t total = 0;
  for (; it != items_.end() && it->start < end; ++it) total += std::min(it->end, end) - std::max(it->start, start);
  return total;
}

IntervalSet IntervalSet::intersect(const IntervalSet& other) const {
  IntervalSet out;
  size_t i = 0, j = 0;
  const auto& a = items_;
  const auto& b = other.items_;
  while (i < a.size() && j < b.size()) {
    appendMerged(out.items_, std::max(a[i].start, b[j].start), std::min(a[i].end, b[j].end));
    if (a[i].end < b[j].end)
      ++i;
    else
      ++j;
  }
  return out;
}

IntervalSet IntervalSet::subtract(const IntervalSet& other) const {
  IntervalSet out;
  size_t j = 0;
  const auto& b = other.items_;
  for (const Interval& a : items_) {
    int64_t cursor = a.start;
    while (j < b.size() && b[j].end <= cursor) ++j;
    // b[k] for k >= j may still cut this interval; don't advance j past ones that reach beyond it.
    for (size_t k = j; k < b.size() && b[k].start < a.end; ++k) {
      appendMerged(out.items_, cursor, b[k].start);
      cursor = std::max(cursor, b[k].end);
    }
    appendMerged(out.items_, cursor, a.end);
  }
  return out;
}

IntervalSet IntervalSet::unite(const IntervalSet& other) const {
  IntervalSet out;
  out.items_.reserve(items_.size() + other.items_.size());
  size_t i = 0, j = 0;
  while (i < items_.size() || j < other.items_.size()) {
    const bool take_a = j == other.items_.size() || (i < items_.size() && items_[i].start <= other.items_[j].start);
    const Interval& next = take_a ? items_[i++] : other.items_[j++];
    appendMerged(out.items_, next.start, next.end);
  }
  return out;
}

}  // namespace steplint::analyzer
