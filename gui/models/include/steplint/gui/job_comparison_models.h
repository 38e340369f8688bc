// The job comparison window's tables over a LoadedJobComparison (analyzer/job_diff.h): the
// job's step and each of its parts in both runs, and each rank's step and the change of its
// parts, with how often it was the straggler. Times in ms, mean per step, as `steplint diff
// BASE_DIR NEW_DIR` prints them.
#pragma once

#include <memory>

#include "steplint/gui/job_comparison.h"
#include "steplint/gui/result_table_model.h"

namespace steplint::gui {

class JobComparisonTableModel : public ResultTableModel {
  Q_OBJECT

 public:
  /// Takes the whole comparison; nullptr clears the table.
  void setComparison(std::shared_ptr<const LoadedJobComparison> comparison);

 protected:
  using ResultTableModel::ResultTableModel;
  bool hasResult() const override { return comparison_ != nullptr; }
  const analyzer::JobDiff& diff() const { return comparison_->diff; }
  int decimals(int /*column*/) const override { return 3; }

  std::shared_ptr<const LoadedJobComparison> comparison_;
};

/// One row per part of the job's step (compute, comm transfer, ...), then "step".
class JobPartDeltaModel final : public JobComparisonTableModel {
  Q_OBJECT

 public:
  enum Column {
    kPartColumn,
    kBaseColumn,
    kNewColumn,
    kDeltaColumn,
    kDeltaPercentColumn,
    kColumnCount
  };

  explicit JobPartDeltaModel(QObject* parent = nullptr);

 protected:
  int rows() const override { return static_cast<int>(analyzer::kJobPartCount) + 1; }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  int decimals(int column) const override { return column == kDeltaPercentColumn ? 1 : 3; }
  QVariant extra(int row, int column, int role) const override;
};

/// One row per rank of either run, by rank; "-" on the side a rank is missing from.
class RankDeltaModel final : public JobComparisonTableModel {
  Q_OBJECT

 public:
  enum Column {
    kRankColumn,
    kBaseStepColumn,
    kNewStepColumn,
    kDeltaColumn,
    kComputeColumn,
    kWaitColumn,
    kSyncColumn,
    kHostWorkColumn,
    kDataLoaderColumn,
    kBaseLateColumn,
    kNewLateColumn,
    kColumnCount
  };
  /// kBaseSourceRole / kNewSourceRole: the rank's trace in each run ("" when it is not in it).
  enum Role { kSortRole = kSortValueRole, kRankRole, kBaseSourceRole, kNewSourceRole };

  explicit RankDeltaModel(QObject* parent = nullptr);

 protected:
  int rows() const override { return static_cast<int>(diff().ranks.size()); }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  QVariant extra(int row, int column, int role) const override;
};

}  // namespace steplint::gui
