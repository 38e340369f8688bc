#include "steplint/gui/timeline_widget.h"

#include <QCursor>
#include <QHelpEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include "steplint/gui/rich_text.h"
#include "timeline_input.h"
#include "timeline_painter.h"
#include "timeline_view_state.h"

namespace steplint::gui {

namespace {

TimeRange traceRange(const LoadedTrace& trace) {
  // Normalised as SelectionAndZoom::reset does, so an equal range is recognised as equal.
  const auto [start, end] = trace.model.timeRange();
  return {start, end > start ? end : start + SelectionAndZoom::kMinSpanNs};
}

}  // namespace

TimelineWidget::TimelineWidget(SelectionAndZoom* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      state_(std::make_unique<TimelineViewState>()),
      input_(std::make_unique<TimelineInput>(*state_, *selection)) {
  setFocusPolicy(Qt::StrongFocus);
  setAttribute(Qt::WA_OpaquePaintEvent);  // every pixel is painted each frame
  vbar_ = new QScrollBar(Qt::Vertical, this);
  connect(vbar_, &QScrollBar::valueChanged, this, [this](int v) {
    state_->scroll_y = v;
    update();
  });
  connect(selection_, &SelectionAndZoom::visibleRangeChanged, this, [this] { update(); });
  connect(selection_, &SelectionAndZoom::selectedEventChanged, this,
          &TimelineWidget::onSelectedEvent);
  connect(selection_, &SelectionAndZoom::selectedFindingChanged, this,
          &TimelineWidget::onSelectedFinding);
  connect(selection_, &SelectionAndZoom::searchTextChanged, this, &TimelineWidget::onSearchText);
  updateFrame();
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  state_->setTrace(std::move(trace));
  if (state_->trace) {
    const TimeRange full = traceRange(*state_->trace);
    const TimeRange current = selection_->fullRange();
    if (current.start_ns != full.start_ns || current.end_ns != full.end_ns) selection_->reset(full);
    state_->updateSearch(selection_->searchText());
  }
  vbar_->setValue(0);
  updateFrame();
  update();
}

std::vector<QString> TimelineWidget::trackLabels() const {
  std::vector<QString> labels;
  labels.reserve(state_->layout.rows.size());
  for (const TimelineRow& row : state_->layout.rows)
    labels.push_back(QString::fromStdString(row.label));
  return labels;
}

void TimelineWidget::updateFrame() {
  // A narrow widget gives the labels less room rather than the time axis none.
  const int label_width = std::min(TimelineViewState::kLabelWidth, std::max(width() / 4, 60));
  const int bar = vbar_->sizeHint().width();
  const int top = TimelineViewState::kRulerHeight;
  state_->time_area = QRect(label_width, top, std::max(width() - label_width - bar, 1),
                            std::max(height() - top, 1));
  vbar_->setGeometry(width() - bar, top, bar, std::max(height() - top, 1));
  vbar_->setPageStep(state_->time_area.height());
  vbar_->setSingleStep(state_->layout.options.lane_height);
  vbar_->setRange(0, std::max(0, state_->layout.total_height - state_->time_area.height()));
  state_->scroll_y = vbar_->value();
}

void TimelineWidget::scrollToEvent(uint32_t event_index) {
  if (!state_->trace || event_index >= state_->trace->model.events.size()) return;
  const int row_index = state_->layout.rowOfTrack(state_->trace->model.events[event_index].track);
  if (row_index < 0) return;
  const TimelineRow& row = state_->layout.rows[static_cast<size_t>(row_index)];
  const int visible_top = vbar_->value();
  const int visible_bottom = visible_top + state_->time_area.height();
  if (row.y >= visible_top && row.y + std::min(row.height, 60) <= visible_bottom) return;
  vbar_->setValue(row.y - state_->time_area.height() / 3);
}

void TimelineWidget::onSelectedEvent(uint32_t event_index) {
  state_->updateFlows(event_index);
  scrollToEvent(event_index);
  update();
}

void TimelineWidget::onSelectedFinding(int /*index*/) {
  const auto& events = selection_->highlightedEvents();
  if (!events.empty()) scrollToEvent(events.front());
  update();
}

void TimelineWidget::onSearchText(const QString& text) {
  state_->updateSearch(text);
  update();
}

bool TimelineWidget::apply(bool handled, bool repaint, int scroll_by, uint32_t activated) {
  if (scroll_by != 0) vbar_->setValue(vbar_->value() + scroll_by);
  if (repaint) update();
  if (activated != trace::kNoIndex) emit eventActivated(activated);
  return handled;
}

bool TimelineWidget::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = input_->tooltip(help->pos());
    if (text.isEmpty()) {
      QToolTip::hideText();
      e->ignore();
    } else {
      // Event names are trace text ("void foo<float>(...)"): never let Qt guess they are HTML.
      QToolTip::showText(help->globalPos(), tooltipLiteral(text), this);
    }
    return true;
  }
  if (e->type() == QEvent::NativeGesture) {
    auto* gesture = static_cast<QNativeGestureEvent*>(e);
    if (gesture->gestureType() == Qt::ZoomNativeGesture) {
      const TimelineInput::Result r =
          input_->pinch(gesture->value(), gesture->position().toPoint());
      apply(r.handled, r.repaint, r.scroll_by, r.activated);
      return true;
    }
  }
  return QWidget::event(e);
}

void TimelineWidget::paintEvent(QPaintEvent* /*e*/) {
  QPainter painter(this);
  TimelinePainter(*state_, *selection_, painter).paint(size());
}

void TimelineWidget::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  updateFrame();
}

#define SL_APPLY(call, e)                                      \
  do {                                                         \
    const TimelineInput::Result r = (call);                    \
    if (r.relayout) updateFrame();                             \
    if (apply(r.handled, r.repaint, r.scroll_by, r.activated)) \
      (e)->accept();                                           \
    else                                                       \
      (e)->ignore();                                           \
  } while (false)

void TimelineWidget::wheelEvent(QWheelEvent* e) { SL_APPLY(input_->wheel(*e), e); }

void TimelineWidget::keyPressEvent(QKeyEvent* e) {
  const TimelineInput::Result r = input_->key(*e, mapFromGlobal(QCursor::pos()));
  if (!apply(r.handled, r.repaint, r.scroll_by, r.activated)) QWidget::keyPressEvent(e);
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
  setFocus(Qt::MouseFocusReason);
  SL_APPLY(input_->press(*e), e);
}
void TimelineWidget::mouseMoveEvent(QMouseEvent* e) { SL_APPLY(input_->move(*e), e); }
void TimelineWidget::mouseReleaseEvent(QMouseEvent* e) { SL_APPLY(input_->release(*e), e); }
void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* e) { SL_APPLY(input_->doubleClick(*e), e); }

#undef SL_APPLY

}  // namespace steplint::gui
