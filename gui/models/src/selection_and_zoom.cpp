#include "steplint/gui/selection_and_zoom.h"

#include <algorithm>
#include <limits>

namespace steplint::gui {

SelectionAndZoom::SelectionAndZoom(QObject* parent) : QObject(parent) {
  qRegisterMetaType<steplint::analyzer::TimeRange>("steplint::analyzer::TimeRange");
}

void SelectionAndZoom::reset(TimeRange full) {
  if (full.end_ns <= full.start_ns) full.end_ns = full.start_ns + kMinSpanNs;
  full_ = full;
  undo_.clear();
  highlighted_events_.clear();
  highlighted_ranges_.clear();
  selected_finding_ = -1;
  selected_event_ = trace::kNoIndex;
  visible_ = full;
  emit selectedFindingChanged(-1);
  emit selectedEventChanged(trace::kNoIndex);
  emit visibleRangeChanged(visible_);
}

TimeRange SelectionAndZoom::clamp(TimeRange r) const {
  if (r.end_ns < r.start_ns) std::swap(r.start_ns, r.end_ns);
  const int64_t full_span = full_.end_ns - full_.start_ns;
  int64_t span =
      std::clamp<int64_t>(r.end_ns - r.start_ns, std::min(kMinSpanNs, full_span), full_span);
  // Keep the centre where the caller put it, then slide the window back inside the trace.
  const int64_t centre = r.start_ns + (r.end_ns - r.start_ns) / 2;
  int64_t start = centre - span / 2;
  start = std::clamp(start, full_.start_ns, full_.end_ns - span);
  return {start, start + span};
}

void SelectionAndZoom::setVisibleRange(TimeRange range, bool remember) {
  const TimeRange next = clamp(range);
  if (next.start_ns == visible_.start_ns && next.end_ns == visible_.end_ns) return;
  if (remember) undo_.push_back(visible_);
  visible_ = next;
  emit visibleRangeChanged(visible_);
}

void SelectionAndZoom::zoomTo(TimeRange range, double margin_fraction) {
  if (range.end_ns < range.start_ns) std::swap(range.start_ns, range.end_ns);
  const auto margin =
      static_cast<int64_t>(static_cast<double>(range.end_ns - range.start_ns) * margin_fraction);
  setVisibleRange({range.start_ns - margin, range.end_ns + margin}, true);
}

bool SelectionAndZoom::undoZoom() {
  if (undo_.empty()) return false;
  visible_ = clamp(undo_.back());
  undo_.pop_back();
  emit visibleRangeChanged(visible_);
  return true;
}

void SelectionAndZoom::selectEvent(uint32_t event_index) {
  if (event_index == selected_event_) return;
  selected_event_ = event_index;
  emit selectedEventChanged(event_index);
}

void SelectionAndZoom::selectFinding(int index, const analyzer::Evidence* evidence) {
  selected_finding_ = index;
  highlighted_events_.clear();
  highlighted_ranges_.clear();
  if (evidence != nullptr && index >= 0) {
    highlighted_events_ = evidence->events;
    highlighted_ranges_ = evidence->ranges;
  }
  emit selectedFindingChanged(index);
}

void SelectionAndZoom::setSearchText(const QString& text) {
  if (text == search_) return;
  search_ = text;
  emit searchTextChanged(text);
}

TimeRange evidenceExtent(const analyzer::Evidence& evidence, const trace::TraceModel& model) {
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  for (const TimeRange& r : evidence.ranges) {
    lo = std::min(lo, r.start_ns);
    hi = std::max(hi, r.end_ns);
  }
  for (uint32_t index : evidence.events) {
    if (index >= model.events.size()) continue;  // evidence from another model: ignore, never crash
    const trace::Event& e = model.events[index];
    lo = std::min(lo, e.start_ns);
    hi = std::max(hi, e.end_ns());
  }
  if (lo > hi) return {0, 0};
  return {lo, hi};
}

}  // namespace steplint::gui
