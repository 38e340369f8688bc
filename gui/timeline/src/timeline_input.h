// Keyboard and mouse handling for the timeline, Perfetto habits:
//   W / S          zoom in / out around the mouse (the centre when the mouse is elsewhere)
//   A / D, ← / →   pan left / right by a tenth of the view
//   Ctrl+wheel, wheel over the ruler, touchpad pinch   zoom around the mouse
//   wheel, ↑ / ↓, PgUp / PgDn          scroll rows; Shift+wheel pans
//   drag           pan;  Shift+drag selects a range (Z zooms to it);  drag on the ruler zooms
//   Z              zoom to the range selection, else to the selected event
//   Backspace / U  undo zoom;  0 / F  whole trace;  Esc  clear range and selection
//   click          select an event; double-click activates it (a step: zoom to the step)
//   click a group header (process, GPU, Counters) folds or unfolds its rows
#pragma once

#include <QKeyEvent>
#include <QMouseEvent>
#include <QString>
#include <QWheelEvent>

#include "steplint/gui/selection_and_zoom.h"
#include "timeline_view_state.h"

namespace steplint::gui {

class TimelineInput {
 public:
  /// What the widget should do after an event.
  struct Result {
    bool handled = false;
    bool repaint = false;
    int scroll_by = 0;                     // px of vertical scroll
    uint32_t activated = trace::kNoIndex;  // emit eventActivated(activated)
    bool relayout = false;                 // rows changed (a group was folded)
  };

  static constexpr double kZoomStep = 0.8;  // per key press / wheel notch

  TimelineInput(TimelineViewState& state, SelectionAndZoom& selection)
      : state_(state), selection_(selection) {}

  Result wheel(const QWheelEvent& e);
  /// A touchpad pinch (QNativeGestureEvent, Qt::ZoomNativeGesture): `delta` is the change in
  /// scale since the last event (> 0 spreads the fingers = zoom in), at widget position `pos`.
  Result pinch(double delta, QPoint pos);
  Result key(const QKeyEvent& e, QPoint cursor);
  Result press(const QMouseEvent& e);
  Result move(const QMouseEvent& e);
  Result release(const QMouseEvent& e);
  Result doubleClick(const QMouseEvent& e);
  QString tooltip(QPoint pos) const;

 private:
  enum class Drag : uint8_t { kNone, kPending, kPan, kRange };

  TimelineGeometry geometry() const { return state_.geometry(selection_.visibleRange()); }
  double anchorX(QPoint cursor) const;
  void zoomAround(double anchor_x, double factor);
  void pan(double fraction);
  Result zoomToSelection();
  QString eventTooltip(uint32_t event) const;
  QString stepTooltip(uint32_t step) const;
  QString timeText(int64_t ns) const;

  TimelineViewState& state_;
  SelectionAndZoom& selection_;
  Drag drag_ = Drag::kNone;
  bool range_from_ruler_ = false;
  QPoint press_pos_;
  TimeRange press_visible_{0, 0};
};

}  // namespace steplint::gui
