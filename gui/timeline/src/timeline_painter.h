// Paints one frame of the timeline from the view state: per visible row, a draw list is
// built (draw_list.h) and only its items are painted (docs/reference/style.md §2.11). Raster
// QPainter.
#pragma once

#include <QFont>
#include <QPainter>
#include <QRectF>

#include "steplint/gui/selection_and_zoom.h"
#include "timeline_view_state.h"

namespace steplint::gui {

class TimelinePainter {
 public:
  TimelinePainter(const TimelineViewState& state, const SelectionAndZoom& selection,
                  QPainter& painter);

  void paint(QSize size);

 private:
  void drawGrid(const RulerTicks& ticks);
  void drawRuler(const RulerTicks& ticks, int width);
  void drawRow(const TimelineRow& row, int top);
  void drawEventRow(const TimelineRow& row, int top);
  void drawStepsRow(int top);
  void drawCounterRow(const TimelineRow& row, int top);
  void drawItem(const DrawItem& item, QRectF rect);
  void drawLabels();
  void drawOverlays();
  void drawEventOutline(uint32_t event, const QPen& pen);
  void drawFlows();
  /// The box of `event` in widget px, or an empty rect when its row is not laid out.
  QRectF eventRect(uint32_t event) const;
  void drawBoxText(const QRectF& rect, const QString& text, const QColor& color);

  const TimelineViewState& state_;
  const SelectionAndZoom& selection_;
  QPainter& p_;
  TimelineGeometry g_;
  QFont box_font_;
};

}  // namespace steplint::gui
