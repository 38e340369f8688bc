// The one object that keeps the GUI's views in sync (hotspot's FilterAndZoomStack idea,
// docs/reference/style.md §2.12): the visible time range with an undo stack, the selected event,
// the selected finding with its highlighted evidence, and the search text. Views never talk to each
// other; they set state here and react to its signals.
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <vector>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/trace/model.h"

namespace steplint::gui {

using analyzer::TimeRange;

class SelectionAndZoom final : public QObject {
  Q_OBJECT

 public:
  explicit SelectionAndZoom(QObject* parent = nullptr);

  /// The whole trace's range; zooming never leaves it. Resets zoom, selection and undo.
  void reset(TimeRange full);
  TimeRange fullRange() const { return full_; }
  TimeRange visibleRange() const { return visible_; }

  /// Shows `range` (clamped to the full range, at least kMinSpanNs wide). `remember` pushes
  /// the previous range on the undo stack (zoom-to-selection, finding jumps); continuous
  /// wheel/drag changes pass false so one gesture is not a hundred undo steps.
  void setVisibleRange(TimeRange range, bool remember = false);
  /// Zooms to `range` with a margin of `margin_fraction` of its width on each side.
  void zoomTo(TimeRange range, double margin_fraction = 0.05);
  bool undoZoom();
  bool canUndoZoom() const { return !undo_.empty(); }
  void zoomToFull() { setVisibleRange(full_, true); }

  uint32_t selectedEvent() const { return selected_event_; }  // trace::kNoIndex when none
  void selectEvent(uint32_t event_index);

  /// The selected finding (index into LintResult::diagnostics, -1 for none) and its
  /// evidence: the events and ranges the timeline highlights.
  int selectedFinding() const { return selected_finding_; }
  void selectFinding(int index, const analyzer::Evidence* evidence);
  const std::vector<uint32_t>& highlightedEvents() const { return highlighted_events_; }
  const std::vector<TimeRange>& highlightedRanges() const { return highlighted_ranges_; }

  QString searchText() const { return search_; }
  void setSearchText(const QString& text);

  static constexpr int64_t kMinSpanNs = 1'000;  // 1 µs: below that the ruler runs out of digits

 signals:
  void visibleRangeChanged(steplint::analyzer::TimeRange range);
  void selectedEventChanged(uint32_t event_index);
  void selectedFindingChanged(int index);
  void searchTextChanged(const QString& text);

 private:
  TimeRange clamp(TimeRange range) const;

  TimeRange full_{0, 1};
  TimeRange visible_{0, 1};
  std::vector<TimeRange> undo_;
  uint32_t selected_event_ = trace::kNoIndex;
  int selected_finding_ = -1;
  std::vector<uint32_t> highlighted_events_;
  std::vector<TimeRange> highlighted_ranges_;
  QString search_;
};

/// The smallest range covering all of `evidence`'s ranges and events (of `model`);
/// {0,0} when it names nothing.
TimeRange evidenceExtent(const analyzer::Evidence& evidence, const trace::TraceModel& model);

}  // namespace steplint::gui

Q_DECLARE_METATYPE(steplint::analyzer::TimeRange)
