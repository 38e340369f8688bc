// The overview page's top-N tables: CPU ops grouped by name (analyzer::computeOpStats) and
// kernels grouped by name (TraceSummary::top_kernels, all of them: TraceLoader asks summarize
// for no limit).
#pragma once

#include <vector>

#include "steplint/analyzer/kernel_stats.h"
#include "steplint/analyzer/op_stats.h"
#include "steplint/gui/trace_table_model.h"

namespace steplint::gui {

class OpStatsModel final : public TraceTableModel {
  Q_OBJECT

 public:
  enum Column {
    kNameColumn,
    kCountColumn,
    kTotalColumn,
    kSelfColumn,
    kMeanColumn,
    kMaxColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole };

  explicit OpStatsModel(QObject* parent = nullptr);

 protected:
  int rows() const override { return static_cast<int>(trace_->op_stats.size()); }
  QVariant value(int row, int column) const override;
  int decimals(int column) const override { return column >= kMeanColumn ? 1 : 3; }
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
  int rows() const override { return static_cast<int>(trace_->summary.top_kernels.size()); }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  int decimals(int column) const override { return column >= kMeanColumn ? 1 : 3; }
};

}  // namespace steplint::gui
