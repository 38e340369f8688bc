// Stacked bars of the step-time breakdown: one bar per kept step, then the average, one
// colour per analyzer::StepCategory, with a legend. Painted with QPainter (raster), no chart
// library; "No steps found" when there is nothing to draw.
#pragma once

#include <QColor>
#include <QWidget>
#include <array>
#include <vector>

#include "steplint/analyzer/breakdown.h"

namespace steplint::gui {

class BreakdownChart final : public QWidget {
  Q_OBJECT

 public:
  explicit BreakdownChart(QWidget* parent = nullptr);

  /// Copies what it draws (a few numbers per step), so the result need not outlive the chart.
  void setBreakdown(const analyzer::BreakdownResult& breakdown);
  /// Number of bars drawn: steps + the average, 0 when empty.
  int barCount() const { return static_cast<int>(bars_.size()); }
  /// The y axis reaches at least `ms`, so two charts side by side share one scale (0: own).
  void setScaleMs(double ms);
  double largestBarMs() const;

  static QColor categoryColor(analyzer::StepCategory category);
  QSize sizeHint() const override { return {640, 280}; }
  QSize minimumSizeHint() const override { return {320, 200}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;  // tooltips: the bar's categories in ms

 private:
  struct Bar {
    QString label;  // "#12" or "avg"
    double total_ms = 0;
    std::array<double, analyzer::kStepCategoryCount> ms{};
  };
  QRect plotRect() const;
  QRect barRect(int bar, const QRect& plot) const;
  void paintAxis(QPainter& p, const QRect& plot, double max_ms) const;
  void paintBars(QPainter& p, const QRect& plot, double max_ms) const;
  /// Lays the legend out in as many lines as the width needs; returns its height.
  int legendHeight() const;
  void paintLegend(QPainter& p) const;
  int barAt(QPoint pos) const;

  std::vector<Bar> bars_;
  double scale_ms_ = 0;
};

}  // namespace steplint::gui
