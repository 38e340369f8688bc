// The trace timeline: a time ruler, a label column and one row per thread / stream /
// counter, drawn with raster QPainter from per-frame draw lists (docs/reference/style.md §2.11).
#pragma once

#include <QString>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

#include "steplint/gui/loaded_trace.h"
#include "steplint/gui/selection_and_zoom.h"

class QScrollBar;

namespace steplint::gui {

struct TimelineViewState;
class TimelineInput;

/// The timeline view. Reads and writes the shared SelectionAndZoom (visible range, selected
/// event, search); shows the selected finding's evidence. Key and mouse bindings: see
/// gui/timeline/src/timeline_input.h.
///
/// \code
///   auto* timeline = new TimelineWidget(&selection, this);
///   timeline->setTrace(loaded);  // resets `selection` to the trace's range when it differs
///   connect(timeline, &TimelineWidget::eventActivated, details, &DetailsPane::showEvent);
/// \endcode
class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineWidget(SelectionAndZoom* selection, QWidget* parent = nullptr);
  ~TimelineWidget() override;

  /// Shows `trace` (nullptr clears). Builds the row layout and per-depth indexes once.
  void setTrace(std::shared_ptr<const LoadedTrace> trace);
  /// The row labels currently laid out, top to bottom (tests).
  std::vector<QString> trackLabels() const;
  /// Scrolls vertically so the row of `event_index` is on screen (no zoom change).
  void scrollToEvent(uint32_t event_index);
  QSize sizeHint() const override { return {1000, 600}; }

 signals:
  void eventActivated(uint32_t event_index);  // double-click on an event

 protected:
  bool event(QEvent* e) override;  // tooltips
  void paintEvent(QPaintEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;

 private:
  /// Applies what the input handler asked for; returns whether the event was handled.
  bool apply(bool handled, bool repaint, int scroll_by, uint32_t activated);
  void updateFrame();
  void onSelectedEvent(uint32_t event_index);
  void onSelectedFinding(int index);
  void onSearchText(const QString& text);

  SelectionAndZoom* selection_;
  std::unique_ptr<TimelineViewState> state_;
  std::unique_ptr<TimelineInput> input_;
  QScrollBar* vbar_ = nullptr;
};

}  // namespace steplint::gui
