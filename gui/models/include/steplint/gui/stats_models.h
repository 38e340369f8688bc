// The overview page's top-N tables: CPU ops grouped by name (analyzer::computeOpStats) and
// kernels grouped by name (analyzer::computeKernelStats). Computed once per trace in setTrace.
#pragma once

#include <vector>

#include "steplint/analyzer/kernel_stats.h"
#include "steplint/analyzer/op_stats.h"
#include "steplint/gui/trace_table_model.h"

namespace steplint::gui {

class OpStatsModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column { kNameColumn, kCountColumn, kTotalColumn, kSelfColumn, kMeanColumn, kMaxColumn, kColumnCount };
  enum Role { kSortRole = kSortValueRole };

  explicit OpStatsModel(QObject* parent = nullptr);

 protected:
  void rebuild() override;
  int rows() const override { return static_cast<int>(stats_.size()); }
  QVariant value(int row, int column) const override;
  int decimals(int column) const override { return column >= kMeanColumn ? 1 : 3; }

 private:
  std::vector<analyzer::OpStat> stats_;
};

class KernelStatsModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column {
    kNameColumn,
    kCountColumn,
    kTotalColumn,
    kMeanColumn,
    kMinColumn,
    kMaxColumn,
    kTensorCoreColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole };

  explicit KernelStatsModel(QObject* parent = nullptr);

 protected:
  void rebuild() override;
  int rows() const override { return static_cast<int>(stats_.size()); }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  int decimals(int column) const override { return column >= kMeanColumn ? 1 : 3; }

 private:
  std::vector<analyzer::KernelStat> stats_;
};

}  // namespace steplint::gui
