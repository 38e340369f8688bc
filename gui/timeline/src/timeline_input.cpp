#include "timeline_input.h"

#include <algorithm>
#include <cmath>

namespace steplint::gui {

namespace {

constexpr int kDragThresholdPx = 4;
constexpr double kPanFraction = 0.1;

int xOf(const QMouseEvent& e) { return e.position().toPoint().x(); }

}  // namespace

double TimelineInput::anchorX(QPoint cursor) const {
  const QRect& area = state_.time_area;
  if (cursor.x() >= area.left() && cursor.x() <= area.right()) return cursor.x() - area.left();
  return area.width() / 2.0;
}

void TimelineInput::zoomAround(double anchor_x, double factor) {
  selection_.setVisibleRange(geometry().zoomed(anchor_x, factor));
}

void TimelineInput::pan(double fraction) {
  const TimelineGeometry g = geometry();
  selection_.setVisibleRange(g.panned(fraction * g.width_px));
}

TimelineInput::Result TimelineInput::wheel(const QWheelEvent& e) {
  Result r{true, false, 0, trace::kNoIndex};
  const QPoint pos = e.position().toPoint();
  const int dy = e.angleDelta().y();
  const int dx = e.angleDelta().x();
  const bool over_ruler = pos.y() < state_.time_area.top();
  if ((e.modifiers() & Qt::ControlModifier) || over_ruler) {
    if (dy != 0) zoomAround(anchorX(pos), std::pow(kZoomStep, dy / 120.0));
  } else if ((e.modifiers() & Qt::ShiftModifier) || dx != 0) {
    const int d = dx != 0 ? dx : dy;  // some platforms turn Shift+wheel into a horizontal wheel
    pan(-kPanFraction * d / 120.0);
  } else {
    r.scroll_by = -dy / 2;
  }
  return r;
}

TimelineInput::Result TimelineInput::pinch(double delta, QPoint pos) {
  // Qt reports the scale change per event; shrinking the span by (1 + delta) keeps a full
  // pinch proportional to the fingers' movement. Clamped so one odd event cannot invert it.
  const double factor = 1.0 / std::clamp(1.0 + delta, 0.2, 5.0);
  zoomAround(anchorX(pos), factor);
  return Result{true, false, 0, trace::kNoIndex};
}

TimelineInput::Result TimelineInput::key(const QKeyEvent& e, QPoint cursor) {
  Result r{true, false, 0, trace::kNoIndex};
  // Ctrl/Alt combinations belong to the main window's shortcuts (Ctrl+F is search, not "fit").
  if (e.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) return Result{};
  const int page = std::max(state_.time_area.height() - 40, 40);
  switch (e.key()) {
    case Qt::Key_W:
      zoomAround(anchorX(cursor), kZoomStep);
      break;
    case Qt::Key_S:
      zoomAround(anchorX(cursor), 1.0 / kZoomStep);
      break;
    case Qt::Key_A:
    case Qt::Key_Left:
      pan(-kPanFraction);
      break;
    case Qt::Key_D:
    case Qt::Key_Right:
      pan(kPanFraction);
      break;
    case Qt::Key_Backspace:
    case Qt::Key_U:
      selection_.undoZoom();
      break;
    case Qt::Key_0:
    case Qt::Key_F:
      selection_.zoomToFull();
      break;
    case Qt::Key_Z:
      return zoomToSelection();
    case Qt::Key_Up:
      r.scroll_by = -40;
      break;
    case Qt::Key_Down:
      r.scroll_by = 40;
      break;
    case Qt::Key_PageUp:
      r.scroll_by = -page;
      break;
    case Qt::Key_PageDown:
      r.scroll_by = page;
      break;
    case Qt::Key_Escape:
      state_.has_range = false;
      selection_.selectEvent(trace::kNoIndex);
      r.repaint = true;
      break;
    default:
      r.handled = false;
      break;
  }
  return r;
}

TimelineInput::Result TimelineInput::zoomToSelection() {
  Result r{true, true, 0, trace::kNoIndex};
  if (state_.has_range && state_.range_selection.end_ns > state_.range_selection.start_ns) {
    selection_.zoomTo(state_.range_selection, 0.0);
    state_.has_range = false;
  } else if (state_.trace && selection_.selectedEvent() < state_.trace->model.events.size()) {
    const trace::Event& e = state_.trace->model.events[selection_.selectedEvent()];
    selection_.zoomTo({e.start_ns, e.end_ns()}, 0.1);
  }
  return r;
}

TimelineInput::Result TimelineInput::press(const QMouseEvent& e) {
  Result r;
  if (e.button() != Qt::LeftButton) return r;
  r.handled = true;
  press_pos_ = e.position().toPoint();
  press_visible_ = selection_.visibleRange();
  range_from_ruler_ =
      press_pos_.y() < state_.time_area.top() && press_pos_.x() >= state_.time_area.left();
  drag_ =
      (range_from_ruler_ || (e.modifiers() & Qt::ShiftModifier)) ? Drag::kRange : Drag::kPending;
  return r;
}

TimelineInput::Result TimelineInput::move(const QMouseEvent& e) {
  Result r;
  const QPoint pos = e.position().toPoint();
  if (drag_ == Drag::kPending && (pos - press_pos_).manhattanLength() > kDragThresholdPx)
    drag_ = Drag::kPan;
  if (drag_ == Drag::kPan) {
    // Relative to the view at the press, so rounding does not accumulate over the drag.
    selection_.setVisibleRange(state_.geometry(press_visible_).panned(press_pos_.x() - pos.x()));
    r.handled = true;
  } else if (drag_ == Drag::kRange) {
    const int left = state_.time_area.left();
    state_.range_selection = geometry().between(press_pos_.x() - left, pos.x() - left);
    state_.has_range = std::abs(pos.x() - press_pos_.x()) > 1;
    r.handled = r.repaint = true;
  }
  return r;
}

TimelineInput::Result TimelineInput::release(const QMouseEvent& e) {
  Result r;
  if (e.button() != Qt::LeftButton || drag_ == Drag::kNone) return r;
  r.handled = r.repaint = true;
  const Drag drag = drag_;
  drag_ = Drag::kNone;
  if (drag == Drag::kRange) {
    const bool wide = std::abs(xOf(e) - press_pos_.x()) > kDragThresholdPx;
    if (range_from_ruler_ && wide) return zoomToSelection();
    if (!wide) state_.has_range = false;
    return r;
  }
  if (drag == Drag::kPending) {  // a click
    const TimelineHit hit = state_.hitAt(press_pos_, selection_.visibleRange());
    if (hit.row >= 0 &&
        state_.layout.rows[static_cast<size_t>(hit.row)].kind == RowKind::kGroupHeader) {
      state_.toggleGroup(hit.row);
      r.relayout = true;
      return r;
    }
    const bool event_row =
        hit.row >= 0 && state_.layout.rows[static_cast<size_t>(hit.row)].track != trace::kNoIndex;
    selection_.selectEvent(event_row ? hit.event : trace::kNoIndex);
  }
  return r;
}

TimelineInput::Result TimelineInput::doubleClick(const QMouseEvent& e) {
  Result r;
  if (e.button() != Qt::LeftButton || !state_.trace) return r;
  r.handled = r.repaint = true;
  const TimelineHit hit = state_.hitAt(e.position().toPoint(), selection_.visibleRange());
  if (hit.row < 0 || hit.event == trace::kNoIndex) return r;
  const TimelineRow& row = state_.layout.rows[static_cast<size_t>(hit.row)];
  if (row.kind == RowKind::kSteps) {
    const analyzer::Step& s = state_.trace->summary.steps.steps[hit.event];
    selection_.zoomTo({s.start_ns, s.end_ns}, 0.02);
  } else if (row.track != trace::kNoIndex) {
    selection_.selectEvent(hit.event);
    r.activated = hit.event;
  }
  return r;
}

QString TimelineInput::timeText(int64_t ns) const {
  // Relative to the trace start, like the ruler.
  return QString::fromStdString(formatDuration(ns - selection_.fullRange().start_ns));
}

QString TimelineInput::eventTooltip(uint32_t event) const {
  const trace::TraceModel& model = state_.trace->model;
  const trace::Event& e = model.events[event];
  QString text =
      QString::fromUtf8(model.name(e).data(), static_cast<qsizetype>(model.name(e).size()));
  if (text.size() > 300) text = text.left(300) + QStringLiteral("…");
  const std::string_view kind = trace::eventKindName(e.kind);
  text +=
      QStringLiteral("\n") + QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size()));
  text += QStringLiteral(" · ") + QString::fromStdString(formatDuration(e.dur_ns));
  text += QStringLiteral("\nstart ") + timeText(e.start_ns);
  if (const trace::GpuDetail* d = model.gpu(e); d != nullptr && d->stream >= 0) {
    text += QStringLiteral(" · GPU %1 stream %2").arg(d->device).arg(d->stream);
  }
  return text;
}

QString TimelineInput::stepTooltip(uint32_t step) const {
  const analyzer::Step& s = state_.trace->summary.steps.steps[step];
  return QStringLiteral("Step %1\n").arg(s.number) +
         QString::fromStdString(formatDuration(s.duration_ns())) + QStringLiteral("\nstart ") +
         timeText(s.start_ns);
}

QString TimelineInput::tooltip(QPoint pos) const {
  if (!state_.trace) return {};
  const TimelineHit hit = state_.hitAt(pos, selection_.visibleRange());
  if (hit.row < 0) return {};
  const TimelineRow& row = state_.layout.rows[static_cast<size_t>(hit.row)];
  if (hit.area == TimelineHit::Area::kLabels) return QString::fromStdString(row.label);
  if (row.kind == RowKind::kSteps && hit.event != trace::kNoIndex) return stepTooltip(hit.event);
  if (row.track != trace::kNoIndex && hit.event != trace::kNoIndex) return eventTooltip(hit.event);
  if (row.kind == RowKind::kCounter && row.series >= 0) {
    const CounterSeries& s = state_.layout.counters[static_cast<size_t>(row.series)];
    const auto it = std::upper_bound(s.ts_ns.begin(), s.ts_ns.end(), hit.time_ns);
    if (it == s.ts_ns.begin()) return {};
    const double v = s.values[static_cast<size_t>(it - s.ts_ns.begin()) - 1];
    return QString::fromStdString(row.label) + QStringLiteral("\n") +
           QString::fromStdString(formatCounterValue(s, v)) + QStringLiteral(" at ") +
           timeText(hit.time_ns);
  }
  return {};
}

}  // namespace steplint::gui
