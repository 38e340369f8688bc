// The overview page's summary tables: step-time breakdown per step (plus the average), the
// per-GPU summary and the idle-time breakdown per stream (over the analysed steps and over
// HTA's window). Times are shown in milliseconds.
#pragma once

#include "steplint/analyzer/breakdown.h"
#include "steplint/gui/trace_table_model.h"

namespace steplint::gui {

/// One row per kept step, then an "Average" row; one column per analyzer::StepCategory.
class StepBreakdownModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column {
    kStepColumn,
    kTotalColumn,
    kFirstCategoryColumn,  // + static_cast<int>(StepCategory)
    kColumnCount = kFirstCategoryColumn + analyzer::kStepCategoryCount
  };
  enum Role { kSortRole = kSortValueRole, kStepRole };  // kStepRole: step number, -1 on "Average"

  explicit StepBreakdownModel(QObject* parent = nullptr);
  bool isAverageRow(int row) const;

 protected:
  int rows() const override;
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  QVariant extra(int row, int column, int role) const override;
};

class GpuSummaryModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column {
    kDeviceColumn,
    kNameColumn,
    kUtilizationColumn,
    kSmEfficiencyColumn,
    kOccupancyColumn,
    kTensorCoreColumn,
    kKernelCountColumn,
    kBusyColumn,
    kPeakAllocatedColumn,  // GiB of peak allocated memory (allocator "Total Allocated"); -1 unknown
    kPeakReservedColumn,   // GiB of peak reserved memory ("Total Reserved", allocated + cache); -1
                           // unknown
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole };

  explicit GpuSummaryModel(QObject* parent = nullptr);

 protected:
  int rows() const override;
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
};

/// One row per stream and window: first the analysed steps' window (the GPU summary's), then
/// HTA's window (what HTA's get_idle_time_breakdown reports).
class IdleModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column {
    kWindowColumn,
    kDeviceColumn,
    kStreamColumn,
    kSpanColumn,
    kBusyColumn,
    kHostWaitColumn,
    kKernelWaitColumn,
    kOtherColumn,
    kIdleShareColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole };

  explicit IdleModel(QObject* parent = nullptr);

 protected:
  int rows() const override;
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  QVariant extra(int row, int column, int role) const override;

 private:
  bool isHtaRow(int row) const;
  const analyzer::StreamIdle& stream(int row) const;
};

}  // namespace steplint::gui
