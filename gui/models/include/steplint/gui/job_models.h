// The ranks view's tables over one job of a LoadedJob: the per-rank table (the same mean
// per-step numbers as `steplint summary DIR`'s "Ranks" table, in ms) and the steps with their
// late rank and its cause. Both take the whole LoadedJob and the index of the job shown.
#pragma once

#include <memory>

#include "steplint/gui/loaded_job.h"
#include "steplint/gui/result_table_model.h"

namespace steplint::gui {

class JobTableModel : public ResultTableModel {
  Q_OBJECT

 public:
  /// Shows jobs[index] of `job` (nullptr, or an index past the end, clears the table).
  void setJob(std::shared_ptr<const LoadedJob> job, size_t index = 0);
  /// The job shown; only valid while rowCount() > 0 or after setJob with a valid index.
  const analyzer::JobAnalysis* analysis() const { return analysis_; }

 protected:
  using ResultTableModel::ResultTableModel;
  bool hasResult() const override { return analysis_ != nullptr; }

  std::shared_ptr<const LoadedJob> job_;
  const analyzer::JobAnalysis* analysis_ = nullptr;  // inside job_
};

/// One row per rank, in rank order; the straggler's row is drawn bold.
class RanksModel final : public JobTableModel {
  Q_OBJECT

 public:
  enum Column {
    kRankColumn,
    kSourceColumn,  // the trace's file name (the path in the tooltip and kSourceRole)
    kStepColumn,
    kComputeColumn,
    kTransferColumn,
    kWaitColumn,
    kSyncColumn,
    kHostWorkColumn,
    kDataLoaderColumn,
    kIdleColumn,
    kLateStepsColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole, kRankRole, kSourceRole };  // qlonglong rank, QString path

  explicit RanksModel(QObject* parent = nullptr);

 protected:
  int rows() const override { return static_cast<int>(analysis_->ranks.size()); }
  QVariant value(int row, int column) const override;
  int decimals(int /*column*/) const override { return 3; }  // as the CLI's table
  QString text(int row, int column) const override;
  QVariant extra(int row, int column, int role) const override;
};

/// One row per compared step: the median step, the collectives matched, the late rank, how long
/// the others waited for it and why it was late.
class JobStepsModel final : public JobTableModel {
  Q_OBJECT

 public:
  enum Column {
    kStepColumn,
    kMedianColumn,
    kCollectivesColumn,
    kLateRankColumn,
    kLateColumn,
    kCauseColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole, kStepRole };  // qlonglong step number

  explicit JobStepsModel(QObject* parent = nullptr);

 protected:
  int rows() const override { return static_cast<int>(analysis_->steps.size()); }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  int decimals(int /*column*/) const override { return 3; }
  bool isNumericColumn(int column) const override {
    return column != kCauseColumn && JobTableModel::isNumericColumn(column);
  }
  QVariant extra(int row, int column, int role) const override;
};

/// "input pipeline (+12.0 ms): DataLoader" — a late step's cause as the CLI's steps table says it.
QString lateCauseText(const analyzer::JobStep& step);

}  // namespace steplint::gui
