#include "timeline_painter.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

namespace steplint::gui {

namespace {

constexpr double kTextMinPx = 24.0;      // narrower boxes get no label
constexpr double kHatchMinPx = 10.0;     // folded blocks this wide get a hatch
constexpr double kFoldTextMinPx = 64.0;  // ... and this wide an "N events" label
constexpr size_t kMaxOutlined = 5000;    // highlighted evidence events drawn per frame

QString qstr(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

TimelinePainter::TimelinePainter(const TimelineViewState& state, const SelectionAndZoom& selection,
                                 QPainter& painter)
    : state_(state),
      selection_(selection),
      p_(painter),
      g_(state.geometry(selection.visibleRange())) {
  box_font_ = p_.font();
  box_font_.setPointSizeF(std::max(6.0, box_font_.pointSizeF() * 0.85));
}

void TimelinePainter::paint(QSize size) {
  p_.fillRect(QRect(QPoint(0, 0), size), TimelinePalette::background());
  const RulerTicks ticks = rulerTicks(g_.range, g_.width_px, selection_.fullRange().start_ns);
  drawGrid(ticks);
  if (state_.trace) {
    const QRect& area = state_.time_area;
    p_.save();
    p_.setClipRect(QRect(0, area.top(), area.right() + 1, area.height()));
    for (const TimelineRow& row : state_.layout.rows) {
      const int top = state_.rowTop(row);
      if (top + row.height < area.top() || top > area.bottom()) continue;
      drawRow(row, top);
    }
    p_.restore();
    drawLabels();
    drawOverlays();
  } else {
    p_.setPen(QColor(0x70, 0x70, 0x70));
    p_.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, QStringLiteral("No trace loaded"));
  }
  drawRuler(ticks, size.width());
}

void TimelinePainter::drawGrid(const RulerTicks& ticks) {
  p_.setPen(QColor(0xe4, 0xe4, 0xe4));
  const QRect& area = state_.time_area;
  for (const RulerTick& t : ticks.ticks) {
    const double x = area.left() + t.x;
    p_.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
  }
}

void TimelinePainter::drawRuler(const RulerTicks& ticks, int width) {
  const QRect& area = state_.time_area;
  p_.fillRect(QRect(0, 0, width, area.top()), QColor(0xee, 0xee, 0xee));
  p_.setPen(QColor(0x90, 0x90, 0x90));
  p_.drawLine(0, area.top() - 1, width, area.top() - 1);
  p_.setPen(QColor(0x30, 0x30, 0x30));
  p_.setFont(box_font_);
  const QString unit = QString::fromUtf8(ticks.unit.c_str());
  for (const RulerTick& t : ticks.ticks) {
    const double x = area.left() + t.x;
    p_.drawLine(QPointF(x, area.top() - 7), QPointF(x, area.top() - 1));
    p_.drawText(QPointF(x + 3, area.top() - 9),
                QString::fromUtf8(t.label.c_str()) + QLatin1Char(' ') + unit);
  }
  if (state_.has_range) {  // the range being selected, with its length (Perfetto's area selection)
    const double x0 = area.left() + g_.xOf(state_.range_selection.start_ns);
    const double x1 = area.left() + g_.xOf(state_.range_selection.end_ns);
    const QRectF band(x0, 0, std::max(x1 - x0, 1.0), area.top() - 1);
    p_.fillRect(band, QColor(40, 110, 220, 90));
    const QString length = QString::fromStdString(
        formatDuration(state_.range_selection.end_ns - state_.range_selection.start_ns));
    p_.setPen(QColor(0x10, 0x30, 0x70));
    p_.drawText(band.adjusted(-60, 0, 60, -12), Qt::AlignCenter, length);
    p_.setPen(QColor(0x30, 0x30, 0x30));
  }
  const QString span = QString::fromStdString(formatDuration(g_.spanNs()));
  p_.drawText(QRect(4, 0, area.left() - 8, area.top()), Qt::AlignVCenter | Qt::AlignLeft,
              QStringLiteral("view: ") + span);
}

void TimelinePainter::drawRow(const TimelineRow& row, int top) {
  const QRect& area = state_.time_area;
  switch (row.kind) {
    case RowKind::kGroupHeader:
      p_.fillRect(QRect(area.left(), top, area.width(), row.height), QColor(0xe6, 0xea, 0xf0));
      break;
    case RowKind::kSteps:
      drawStepsRow(top);
      break;
    case RowKind::kCounter:
      drawCounterRow(row, top);
      break;
    default:
      drawEventRow(row, top);
      break;
  }
  p_.setPen(QColor(0xdd, 0xdd, 0xdd));
  p_.drawLine(0, top + row.height - 1, area.right(), top + row.height - 1);
}

void TimelinePainter::drawItem(const DrawItem& item, QRectF rect) {
  if (item.folded()) {
    // Tinted by the fold's first event, so a run of kernels still reads as kernels (Tracy does
    // the same); the hatch says "zoom in to split".
    const auto& events = state_.trace->model.events;
    const QColor tint = item.first < events.size()
                            ? state_.palette.eventColor(events[item.first]).lighter(125)
                            : TimelinePalette::folded();
    p_.fillRect(rect, tint);
    if (rect.width() >= kHatchMinPx)
      p_.fillRect(rect, QBrush(QColor(0x80, 0x80, 0x80), Qt::BDiagPattern));
    if (rect.width() >= kFoldTextMinPx) {
      drawBoxText(rect, QString::number(item.count) + QStringLiteral(" events"),
                  QColor(0x20, 0x20, 0x20));
    }
    return;
  }
  const trace::Event& e = state_.trace->model.events[item.index];
  QColor fill = state_.palette.eventColor(e);
  const bool match = state_.matches(e);
  if (!match) fill = TimelinePalette::dimmed(fill);
  p_.fillRect(rect, fill);
  if (state_.search_active && match) {
    p_.setPen(QPen(QColor(0x10, 0x10, 0x10), 1.5));
    p_.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
  }
  if (rect.width() >= kTextMinPx) {
    const QColor text = match ? TimelinePalette::textOn(fill) : QColor(0x80, 0x80, 0x80);
    drawBoxText(rect, qstr(state_.trace->model.name(e)), text);
  }
}

void TimelinePainter::drawEventRow(const TimelineRow& row, int top) {
  const QRect& area = state_.time_area;
  const auto& items = state_.draw_cache.events(state_.trace->model, state_.index, row.track, g_);
  const double lane_h = state_.layout.options.lane_height;
  const double pad = state_.layout.options.row_padding;
  for (const DrawItem& item : items) {
    // Cached lists cover 3× the view: project from time and skip what is off screen.
    const double item_x0 = g_.xOf(item.start_ns);
    const double item_x1 = std::max(g_.xOf(item.end_ns), item_x0 + 1.0);
    if (item_x1 < 0 || item_x0 > g_.width_px) continue;
    const double x0 = std::max(item_x0, -2.0);
    const double x1 = std::min(item_x1, g_.width_px + 2.0);
    const QRectF rect(area.left() + x0, top + pad + item.depth * lane_h, std::max(x1 - x0, 1.0),
                      lane_h - 1.0);
    drawItem(item, rect);
  }
}

void TimelinePainter::drawStepsRow(int top) {
  const QRect& area = state_.time_area;
  const auto& steps = state_.trace->summary.steps.steps;
  const double pad = state_.layout.options.row_padding;
  const double h = state_.layout.options.lane_height - 1.0;
  for (const DrawItem& item : state_.draw_cache.steps(steps, g_)) {
    const double item_x0 = g_.xOf(item.start_ns);
    const double item_x1 = std::max(g_.xOf(item.end_ns), item_x0 + 1.0);
    if (item_x1 < 0 || item_x0 > g_.width_px) continue;
    const double x0 = std::max(item_x0, -2.0);
    const double x1 = std::min(item_x1, g_.width_px + 2.0);
    const QRectF rect(area.left() + x0, top + pad, std::max(x1 - x0, 1.0), h);
    if (item.folded()) {
      p_.fillRect(rect, TimelinePalette::folded());
      continue;
    }
    const analyzer::Step& s = steps[item.index];
    p_.fillRect(rect, TimelinePalette::stepColor(s.number));
    if (rect.width() >= kTextMinPx) {
      drawBoxText(rect, QStringLiteral("Step ") + QString::number(s.number),
                  QColor(0xff, 0xff, 0xff));
    }
  }
}

void TimelinePainter::drawCounterRow(const TimelineRow& row, int top) {
  if (row.series < 0 || static_cast<size_t>(row.series) >= state_.layout.counters.size()) return;
  const CounterSeries& series = state_.layout.counters[static_cast<size_t>(row.series)];
  const std::vector<float> columns = counterColumns(series, g_);
  const double scale = series.max_value > 0 ? (row.height - 6) / series.max_value : 0.0;
  const double base = top + row.height - 2;
  const QColor fill(0x5b, 0x8d, 0xd6, 150);
  for (size_t px = 0; px < columns.size(); ++px) {
    if (std::isnan(columns[px])) continue;
    const double h = std::max(0.0, static_cast<double>(columns[px]) * scale);
    p_.fillRect(QRectF(state_.time_area.left() + static_cast<double>(px), base - h, 1.0, h), fill);
  }
  p_.setPen(QColor(0x50, 0x50, 0x50));
  p_.setFont(box_font_);
  p_.drawText(QPointF(state_.time_area.left() + 4, top + 12),
              QStringLiteral("max ") +
                  QString::fromStdString(formatCounterValue(series, series.max_value)));
}

void TimelinePainter::drawBoxText(const QRectF& rect, const QString& text, const QColor& color) {
  const QFontMetricsF fm(box_font_);
  const QString elided = fm.elidedText(text, Qt::ElideRight, rect.width() - 4.0);
  if (elided.size() <= 1) return;
  p_.setFont(box_font_);
  p_.setPen(color);
  p_.drawText(rect.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, elided);
}

void TimelinePainter::drawLabels() {
  const QRect& area = state_.time_area;
  p_.save();
  p_.setClipRect(QRect(0, area.top(), area.left(), area.height()));
  p_.fillRect(QRect(0, area.top(), area.left(), area.height()), QColor(0xf2, 0xf2, 0xf2));
  QFont bold = p_.font();
  bold.setBold(true);
  const QFont normal = p_.font();
  for (const TimelineRow& row : state_.layout.rows) {
    const int top = state_.rowTop(row);
    if (top + row.height < area.top() || top > area.bottom()) continue;
    const bool header = row.kind == RowKind::kGroupHeader;
    if (header) p_.fillRect(QRect(0, top, area.left(), row.height), QColor(0xdc, 0xe1, 0xe8));
    p_.setFont(header ? bold : normal);
    p_.setPen(QColor(0x20, 0x20, 0x20));
    const int indent = header ? 6 : 16;
    const QRect text_rect(indent, top, area.left() - indent - 4, std::min(row.height, 22));
    const QString text = header ? (row.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                                      QString::fromStdString(row.label)
                                : QString::fromStdString(row.label);
    const QString label =
        QFontMetrics(p_.font()).elidedText(text, Qt::ElideMiddle, text_rect.width());
    p_.drawText(text_rect, Qt::AlignVCenter | Qt::AlignLeft, label);
    p_.setPen(QColor(0xd0, 0xd0, 0xd0));
    p_.drawLine(0, top + row.height - 1, area.left(), top + row.height - 1);
  }
  p_.setPen(QColor(0xb0, 0xb0, 0xb0));
  p_.drawLine(area.left() - 1, area.top(), area.left() - 1, area.bottom());
  p_.restore();
}

QRectF TimelinePainter::eventRect(uint32_t event) const {
  const trace::TraceModel& model = state_.trace->model;
  if (event >= model.events.size()) return {};
  const trace::Event& e = model.events[event];
  const int row_index = state_.layout.rowOfTrack(e.track);
  if (row_index < 0 || e.depth >= TimelineLayout::kMaxLanes) return {};
  const TimelineRow& row = state_.layout.rows[static_cast<size_t>(row_index)];
  if (e.depth >= row.depth_count) return {};
  const double top = state_.rowTop(row) + state_.layout.options.row_padding +
                     e.depth * state_.layout.options.lane_height;
  const double x0 = std::max(g_.xOf(e.start_ns), -4.0);
  const double x1 = std::min(g_.xOf(e.end_ns()), g_.width_px + 4.0);
  if (x1 < -4.0 || x0 > g_.width_px + 4.0) return {};
  return QRectF(state_.time_area.left() + x0, top, std::max(x1 - x0, 2.0),
                state_.layout.options.lane_height - 1.0);
}

void TimelinePainter::drawEventOutline(uint32_t event, const QPen& pen) {
  const QRectF r = eventRect(event);
  if (r.isEmpty()) return;
  p_.setPen(pen);
  p_.setBrush(Qt::NoBrush);
  p_.drawRect(r);
}

void TimelinePainter::drawOverlays() {
  const QRect& area = state_.time_area;
  p_.save();
  p_.setClipRect(area);
  for (const TimeRange& r : selection_.highlightedRanges()) {  // finding evidence: a band
    const double x0 = std::max(g_.xOf(r.start_ns), -2.0);
    const double x1 = std::min(g_.xOf(r.end_ns), g_.width_px + 2.0);
    if (x1 >= 0 && x0 <= g_.width_px) {
      p_.fillRect(QRectF(area.left() + x0, area.top(), std::max(x1 - x0, 2.0), area.height()),
                  QColor(255, 200, 0, 60));
    }
  }
  if (state_.has_range) {
    const double x0 = g_.xOf(state_.range_selection.start_ns);
    const double x1 = g_.xOf(state_.range_selection.end_ns);
    p_.fillRect(QRectF(area.left() + x0, area.top(), std::max(x1 - x0, 1.0), area.height()),
                QColor(40, 110, 220, 50));
  }
  const auto& highlighted = selection_.highlightedEvents();
  const QPen evidence_pen(QColor(0xff, 0x8c, 0x00), 3.0);
  for (size_t i = 0; i < highlighted.size() && i < kMaxOutlined; ++i)
    drawEventOutline(highlighted[i], evidence_pen);
  drawFlows();
  drawEventOutline(selection_.selectedEvent(), QPen(QColor(0x10, 0x10, 0x10), 2.0));
  p_.restore();
}

void TimelinePainter::drawFlows() {
  const QPen pen(QColor(0x30, 0x30, 0x30), 1.2);
  for (const auto& [from, to] : state_.flows) {
    const QRectF a = eventRect(from);
    const QRectF b = eventRect(to);
    if (a.isEmpty() || b.isEmpty()) continue;  // both ends must be on screen
    if (!state_.time_area.contains(a.topLeft().toPoint()) ||
        !state_.time_area.contains(b.topLeft().toPoint())) {
      continue;
    }
    // Same row (an op and the launch nested in it): a short drop from the op's lane;
    // across rows (launch → kernel): from the launch's start to the kernel's start.
    const bool same_row =
        state_.trace->model.events[from].track == state_.trace->model.events[to].track;
    const QPointF start =
        same_row ? QPointF(b.left(), a.bottom()) : QPointF(a.left(), a.center().y());
    const QPointF end(b.left(), b.top() < a.top() ? b.bottom() : b.top());
    p_.setPen(pen);
    p_.drawLine(start, end);
    // Arrow head pointing at the downstream end.
    const double angle = std::atan2(end.y() - start.y(), end.x() - start.x());
    const QPointF h1 = end - QPointF(std::cos(angle - 0.4) * 7, std::sin(angle - 0.4) * 7);
    const QPointF h2 = end - QPointF(std::cos(angle + 0.4) * 7, std::sin(angle + 0.4) * 7);
    const QPointF head[3] = {end, h1, h2};
    p_.setBrush(QColor(0x30, 0x30, 0x30));
    p_.drawPolygon(head, 3);
    p_.setBrush(Qt::NoBrush);
  }
}

}  // namespace steplint::gui
