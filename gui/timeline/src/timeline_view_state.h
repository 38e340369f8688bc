// What the timeline's painter and input handler share: the trace with its row layout and
// per-depth index, the pixel frame (ruler, label column, scroll), the range being selected,
// the selected event's flow arrows and the search matches. Owned by TimelineWidget.
#pragma once

#include <QPoint>
#include <QRect>
#include <QString>
#include <memory>
#include <utility>
#include <vector>

#include "steplint/gui/draw_list.h"
#include "steplint/gui/draw_list_cache.h"
#include "steplint/gui/loaded_trace.h"
#include "steplint/gui/timeline_geometry.h"
#include "steplint/gui/timeline_layout.h"
#include "timeline_palette.h"

namespace steplint::gui {

/// What is under a point of the widget.
struct TimelineHit {
  enum class Area : uint8_t { kNone, kRuler, kLabels, kRows };
  Area area = Area::kNone;
  int row = -1;                      // index into layout.rows
  int depth = -1;                    // lane inside an event row
  uint32_t event = trace::kNoIndex;  // event (event rows) or step index (Steps row)
  int64_t time_ns = 0;               // time under the point (ruler and rows)
};

struct TimelineViewState {
  static constexpr int kRulerHeight = 26;
  static constexpr int kLabelWidth = 220;
  static constexpr double kHitSlopPx = 2.0;

  std::shared_ptr<const LoadedTrace> trace;
  TimelineLayout layout;
  TimelineIndex index;
  TimelinePalette palette;
  mutable DrawListCache draw_cache;  // filled while painting (a const pass over the state)

  QRect time_area;   // rows area right of the labels, below the ruler (widget px)
  int scroll_y = 0;  // px of rows scrolled off the top

  bool has_range = false;  // a Shift+drag / ruler-drag range selection is shown
  TimeRange range_selection{0, 0};

  std::vector<std::pair<uint32_t, uint32_t>>
      flows;                          // (upstream, downstream): launch → kernel, op → launch
  std::vector<uint8_t> search_match;  // per StringId; empty when no search
  bool search_active = false;
  std::vector<std::string> collapsed_groups;  // group header labels folded by a click

  void setTrace(std::shared_ptr<const LoadedTrace> t);
  TimelineGeometry geometry(TimeRange visible) const {
    return {visible, static_cast<double>(std::max(time_area.width(), 1))};
  }
  /// Top of `row` in widget px (may be off-screen).
  int rowTop(const TimelineRow& row) const { return time_area.top() + row.y - scroll_y; }
  TimelineHit hitAt(QPoint pos, TimeRange visible) const;
  /// Folds or unfolds the group whose header is `row` and lays the rows out again.
  void toggleGroup(int row);
  /// Recomputes `flows` for a newly selected event (scans for downstream links once).
  void updateFlows(uint32_t selected);
  /// Recomputes `search_match` (case-insensitive substring of the event name).
  void updateSearch(const QString& text);
  bool matches(const trace::Event& e) const {
    return !search_active || (e.name < search_match.size() && search_match[e.name] != 0);
  }
};

}  // namespace steplint::gui
