// The overview page's "why" tables: the step attribution (attribution.h: each step's wall
// time on the host and on each device split into causes, every nanosecond once) and HTA's
// temporal breakdown per GPU (temporal.h). Times are in milliseconds.
#pragma once

#include <QString>
#include <vector>

#include "steplint/gui/trace_table_model.h"

namespace steplint::gui {

/// One row per timeline and cause with a non-zero average: the host's causes first, then each
/// device's; the shares of one timeline add up to 100 % of the average step.
class AttributionModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column { kTimelineColumn, kCauseColumn, kMsColumn, kShareColumn, kColumnCount };
  enum Role { kSortRole = kSortValueRole };

  explicit AttributionModel(QObject* parent = nullptr);

 protected:
  void rebuild() override;
  int rows() const override;
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;

 private:
  struct Row {
    QString timeline;
    QString cause;
    double ns = 0;
  };
  std::vector<Row> rows_;
};

/// One row per GPU: HTA's get_temporal_breakdown on HTA's window.
class TemporalModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column {
    kDeviceColumn,
    kSpanColumn,
    kIdleColumn,
    kComputeColumn,
    kNonComputeColumn,
    kIdleShareColumn,
    kComputeShareColumn,
    kNonComputeShareColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole };

  explicit TemporalModel(QObject* parent = nullptr);

 protected:
  int rows() const override;
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
};

}  // namespace steplint::gui
