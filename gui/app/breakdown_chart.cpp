#include "breakdown_chart.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace steplint::gui {
namespace {

constexpr int kLeftMargin = 56;  // room for the ms axis labels
constexpr int kLegendLine = 20;
constexpr int kLabelHeight = 20;  // bar labels under the plot
constexpr int kTopMargin = 10;
constexpr int kSwatch = 12;

QString categoryName(int c) {
  const auto name = analyzer::stepCategoryName(static_cast<analyzer::StepCategory>(c));
  return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

/// 1, 2 or 5 times a power of ten, so the axis reads "0 20 40 60".
double niceStep(double max_value, int ticks) {
  const double raw = max_value / std::max(1, ticks);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * magnitude) return m * magnitude;
  }
  return 10 * magnitude;
}

}  // namespace

BreakdownChart::BreakdownChart(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMouseTracking(true);
}

QColor BreakdownChart::categoryColor(analyzer::StepCategory category) {
  // tb_plugin's overview colours, so users of the TensorBoard plugin read it at a glance.
  switch (category) {
    case analyzer::StepCategory::kKernel:
      return QColor(0x31, 0x7e, 0xc2);
    case analyzer::StepCategory::kMemcpy:
      return QColor(0x8e, 0x44, 0xad);
    case analyzer::StepCategory::kMemset:
      return QColor(0xc3, 0x9b, 0xd3);
    case analyzer::StepCategory::kCommunication:
      return QColor(0x27, 0xae, 0x60);
    case analyzer::StepCategory::kRuntime:
      return QColor(0x95, 0xa5, 0xa6);
    case analyzer::StepCategory::kDataLoader:
      return QColor(0xe6, 0x7e, 0x22);
    case analyzer::StepCategory::kCpuExec:
      return QColor(0xf1, 0xc4, 0x0f);
    case analyzer::StepCategory::kOther:
      break;
  }
  return QColor(0xbd, 0xc3, 0xc7);
}

void BreakdownChart::setBreakdown(const analyzer::BreakdownResult& breakdown) {
  bars_.clear();
  for (const analyzer::StepBreakdown& s : breakdown.per_step) {
    Bar bar{QStringLiteral("#%1").arg(s.step_number), static_cast<double>(s.total_ns) / 1e6, {}};
    for (size_t c = 0; c < bar.ms.size(); ++c) bar.ms[c] = static_cast<double>(s.ns[c]) / 1e6;
    bars_.push_back(bar);
  }
  if (!bars_.empty()) {
    Bar avg{tr("avg"), breakdown.average_total_ns / 1e6, {}};
    for (size_t c = 0; c < avg.ms.size(); ++c) avg.ms[c] = breakdown.average_ns[c] / 1e6;
    bars_.push_back(avg);
  }
  update();
}

double BreakdownChart::largestBarMs() const {
  double largest = 0;
  for (const Bar& b : bars_) largest = std::max(largest, b.total_ms);
  return largest;
}

void BreakdownChart::setScaleMs(double ms) {
  scale_ms_ = ms;
  update();
}

QRect BreakdownChart::plotRect() const {
  return QRect(kLeftMargin, kTopMargin, std::max(10, width() - kLeftMargin - 10),
               std::max(10, height() - kTopMargin - kLabelHeight - legendHeight()));
}

QRect BreakdownChart::barRect(int bar, const QRect& plot) const {
  // The average bar stands one slot apart from the steps.
  const int slot_count = static_cast<int>(bars_.size()) + 1;
  const double slot = static_cast<double>(plot.width()) / slot_count;
  const int slot_index = bar == static_cast<int>(bars_.size()) - 1 ? bar + 1 : bar;
  const int bar_width = std::max(1, static_cast<int>(slot * 0.7));
  const int x = plot.left() + static_cast<int>(slot * slot_index + (slot - bar_width) / 2);
  return QRect(x, plot.top(), bar_width, plot.height());
}

void BreakdownChart::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  p.setPen(palette().text().color());
  if (bars_.empty()) {
    p.drawText(rect(), Qt::AlignCenter, tr("No steps found"));
    return;
  }
  double max_ms = scale_ms_;
  for (const Bar& b : bars_) max_ms = std::max(max_ms, b.total_ms);
  if (max_ms <= 0) max_ms = 1;
  const QRect plot = plotRect();
  const double step = niceStep(max_ms, 4);
  max_ms = std::ceil(max_ms / step) * step;
  paintAxis(p, plot, max_ms);
  paintBars(p, plot, max_ms);
  paintLegend(p);
}

void BreakdownChart::paintAxis(QPainter& p, const QRect& plot, double max_ms) const {
  const double step = niceStep(max_ms, 4);
  const QColor grid = palette().mid().color();
  for (double v = 0; v <= max_ms + step / 2; v += step) {
    const int y = plot.bottom() - static_cast<int>(v / max_ms * plot.height());
    p.setPen(grid);
    p.drawLine(plot.left(), y, plot.right(), y);
    p.setPen(palette().text().color());
    p.drawText(QRect(0, y - 8, kLeftMargin - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
               QString::number(v, 'g', 4) + tr(" ms"));
  }
}

void BreakdownChart::paintBars(QPainter& p, const QRect& plot, double max_ms) const {
  const int label_every =
      std::max(1, static_cast<int>(bars_.size()) * 40 / std::max(1, plot.width()));
  for (int i = 0; i < static_cast<int>(bars_.size()); ++i) {
    const Bar& bar = bars_[static_cast<size_t>(i)];
    const QRect r = barRect(i, plot);
    double base = 0;
    for (int c = 0; c < analyzer::kStepCategoryCount; ++c) {
      const double v = bar.ms[static_cast<size_t>(c)];
      const int y0 = plot.bottom() - static_cast<int>(base / max_ms * plot.height());
      const int y1 = plot.bottom() - static_cast<int>((base + v) / max_ms * plot.height());
      if (y0 > y1)
        p.fillRect(QRect(r.left(), y1, r.width(), y0 - y1),
                   categoryColor(static_cast<analyzer::StepCategory>(c)));
      base += v;
    }
    const bool is_average = i == static_cast<int>(bars_.size()) - 1;
    if (is_average || i % label_every == 0) {
      p.setPen(palette().text().color());
      p.drawText(QRect(r.center().x() - 30, plot.bottom() + 2, 60, 16), Qt::AlignCenter, bar.label);
    }
  }
}

int BreakdownChart::legendHeight() const {
  const QFontMetrics metrics(font());
  int x = kLeftMargin;
  int lines = 1;
  for (int c = 0; c < analyzer::kStepCategoryCount; ++c) {
    const int w = kSwatch + 4 + metrics.horizontalAdvance(categoryName(c)) + 14;
    if (x + w > width() && x > kLeftMargin) {
      ++lines;
      x = kLeftMargin;
    }
    x += w;
  }
  return lines * kLegendLine + 4;
}

void BreakdownChart::paintLegend(QPainter& p) const {
  const QFontMetrics metrics(font());
  int x = kLeftMargin;
  int y = height() - legendHeight() + 2;
  for (int c = 0; c < analyzer::kStepCategoryCount; ++c) {
    const QString name = categoryName(c);
    const int w = kSwatch + 4 + metrics.horizontalAdvance(name) + 14;
    if (x + w > width() && x > kLeftMargin) {  // same wrapping as legendHeight()
      x = kLeftMargin;
      y += kLegendLine;
    }
    p.fillRect(QRect(x, y + 3, kSwatch, kSwatch),
               categoryColor(static_cast<analyzer::StepCategory>(c)));
    p.setPen(palette().text().color());
    p.drawText(QRect(x + kSwatch + 4, y, w, kLegendLine - 2), Qt::AlignLeft | Qt::AlignVCenter,
               name);
    x += w;
  }
}

int BreakdownChart::barAt(QPoint pos) const {
  const QRect plot = plotRect();
  for (int i = 0; i < static_cast<int>(bars_.size()); ++i) {
    if (barRect(i, plot).contains(pos)) return i;
  }
  return -1;
}

bool BreakdownChart::event(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QWidget::event(e);
  auto* help = static_cast<QHelpEvent*>(e);
  const int i = barAt(help->pos());
  if (i < 0) {
    QToolTip::hideText();
    return true;
  }
  const Bar& bar = bars_[static_cast<size_t>(i)];
  QString text = QStringLiteral("<b>%1</b>: %2 ms").arg(bar.label).arg(bar.total_ms, 0, 'f', 2);
  for (int c = 0; c < analyzer::kStepCategoryCount; ++c) {
    const double v = bar.ms[static_cast<size_t>(c)];
    if (v > 0) text += QStringLiteral("<br>%1: %2 ms").arg(categoryName(c)).arg(v, 0, 'f', 2);
  }
  QToolTip::showText(help->globalPos(), text, this);
  return true;
}

}  // namespace steplint::gui
