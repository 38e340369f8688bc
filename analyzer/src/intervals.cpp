#include "steplint/analyzer/intervals.h"

#include <algorithm>
#include <utility>
#include <vector>

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

// Above this many sorted runs, one sort beats a k-way merge of the runs.
constexpr size_t kMaxMergedRuns = 1024;

// Merges the sorted run [begin, end) in place (appendMerged's rules); returns its new end.
Interval* compactRun(Interval* begin, Interval* end) {
  Interval* out = begin;
  for (Interval* i = begin; i != end; ++i) {
    if (i->end <= i->start) continue;
    if (out != begin && i->start <= (out - 1)->end) {
      (out - 1)->end = std::max((out - 1)->end, i->end);
      continue;
    }
    *out++ = *i;
  }
  return out;
}

// Merges the compacted runs into `out`, smallest start first (ties in any order: they merge).
void mergeRuns(std::vector<std::pair<Interval*, Interval*>>& runs, std::vector<Interval>& out) {
  const auto later = [&runs](size_t a, size_t b) {
    return runs[a].first->start > runs[b].first->start;
  };
  std::vector<size_t> heap;
  for (size_t r = 0; r < runs.size(); ++r)
    if (runs[r].first != runs[r].second) heap.push_back(r);
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    auto& run = runs[heap.back()];
    appendMerged(out, run.first->start, run.first->end);
    if (++run.first == run.second) {
      heap.pop_back();
    } else {
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
}

}  // namespace

IntervalSet IntervalSet::fromUnsorted(std::vector<Interval> intervals) {
  // Intervals collected in event order arrive as one sorted run per track (events are sorted
  // by track, then start). Each run is merged in place and the runs are merged k-way: no sort
  // and one new buffer at most, which matters because on multi-million-event traces the cost
  // is mostly page faults on fresh memory. The result is the same canonical set either way.
  std::vector<size_t> run_starts = {0};
  for (size_t i = 1; i < intervals.size() && run_starts.size() <= kMaxMergedRuns; ++i)
    if (intervals[i].start < intervals[i - 1].start) run_starts.push_back(i);
  if (run_starts.size() > kMaxMergedRuns) {
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    run_starts = {0};
  }
  run_starts.push_back(intervals.size());
  IntervalSet set;
  if (run_starts.size() == 2) {
    intervals.resize(static_cast<size_t>(
        compactRun(intervals.data(), intervals.data() + intervals.size()) - intervals.data()));
    set.items_ = std::move(intervals);
  } else {
    std::vector<std::pair<Interval*, Interval*>> runs;
    size_t total = 0;
    for (size_t r = 0; r + 1 < run_starts.size(); ++r) {
      Interval* begin = intervals.data() + run_starts[r];
      runs.emplace_back(begin, compactRun(begin, intervals.data() + run_starts[r + 1]));
      total += static_cast<size_t>(runs.back().second - begin);
    }
    set.items_.reserve(total);
    mergeRuns(runs, set.items_);
  }
  if (set.items_.size() * 2 < set.items_.capacity()) set.items_.shrink_to_fit();
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
  auto it = std::upper_bound(items_.begin(), items_.end(), start,
                             [](int64_t t, const Interval& i) { return t < i.end; });
  int64_t total = 0;
  for (; it != items_.end() && it->start < end; ++it)
    total += std::min(it->end, end) - std::max(it->start, start);
  return total;
}

IntervalSet IntervalSet::clip(int64_t start, int64_t end) const {
  IntervalSet out;
  if (end <= start) return out;
  auto it = std::upper_bound(items_.begin(), items_.end(), start,
                             [](int64_t t, const Interval& i) { return t < i.end; });
  for (; it != items_.end() && it->start < end; ++it)
    out.items_.push_back({std::max(it->start, start), std::min(it->end, end)});
  return out;
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
    const bool take_a =
        j == other.items_.size() || (i < items_.size() && items_[i].start <= other.items_[j].start);
    const Interval& next = take_a ? items_[i++] : other.items_[j++];
    appendMerged(out.items_, next.start, next.end);
  }
  return out;
}

}  // namespace steplint::analyzer
