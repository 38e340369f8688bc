// The comparison window's tables over a LoadedComparison (analyzer/run_diff.h): the step-time
// breakdown by category, the per-step times of both runs side by side, the op and kernel
// deltas, and the findings that are new, fixed, worse or better. Times in ms per step.
#pragma once

#include <memory>
#include <vector>

#include "steplint/gui/job_comparison.h"
#include "steplint/gui/loaded_comparison.h"
#include "steplint/gui/result_table_model.h"

namespace steplint::gui {

class ComparisonTableModel : public ResultTableModel {
  Q_OBJECT

 public:
  /// Takes the whole comparison; nullptr clears the table.
  void setComparison(std::shared_ptr<const LoadedComparison> comparison);

 protected:
  using ResultTableModel::ResultTableModel;
  bool hasResult() const override { return comparison_ != nullptr; }
  const analyzer::RunDiff& diff() const { return comparison_->diff; }
  int decimals(int /*column*/) const override { return 3; }

  std::shared_ptr<const LoadedComparison> comparison_;
};

/// One row per step category, then "Step time" (the mean step of each run).
class CategoryDeltaModel final : public ComparisonTableModel {
  Q_OBJECT

 public:
  enum Column {
    kCategoryColumn,
    kBaseColumn,
    kNewColumn,
    kDeltaColumn,
    kDeltaPercentColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole };

  explicit CategoryDeltaModel(QObject* parent = nullptr);

 protected:
  int rows() const override { return static_cast<int>(diff().categories.size()) + 1; }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  int decimals(int column) const override { return column == kDeltaPercentColumn ? 1 : 3; }
  QVariant extra(int row, int column, int role) const override;  // the step-time row in bold
};

/// The analysed steps of both runs side by side, matched by step number (a number only one
/// run has gets a row with the other side empty), with the category that moved most.
class StepPairModel final : public ComparisonTableModel {
  Q_OBJECT

 public:
  enum Column { kStepColumn, kBaseColumn, kNewColumn, kDeltaColumn, kMovedColumn, kColumnCount };
  enum Role { kSortRole = kSortValueRole, kStepRole };  // qlonglong step number

  explicit StepPairModel(QObject* parent = nullptr);

 protected:
  void rebuild() override;
  int rows() const override { return static_cast<int>(rows_.size()); }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  QVariant extra(int row, int column, int role) const override;
  bool isNumericColumn(int column) const override {
    return column != kMovedColumn && ComparisonTableModel::isNumericColumn(column);
  }

 private:
  struct Row {
    int64_t step = 0;
    const analyzer::StepBreakdown* base = nullptr;  // inside comparison_
    const analyzer::StepBreakdown* next = nullptr;
  };
  std::vector<Row> rows_;
};

/// Every op and device-op group of either run (analyzer GroupDelta), CPU ops first as the
/// diff lists them; sorting by |delta| is the view's.
class GroupDeltaModel final : public ComparisonTableModel {
  Q_OBJECT

 public:
  enum Column {
    kKindColumn,
    kNameColumn,
    kChangeColumn,
    kBaseCountColumn,
    kNewCountColumn,
    kBaseMsColumn,
    kNewMsColumn,
    kDeltaMsColumn,
    kAbsDeltaColumn,  // |delta|, for the default "largest change first" order
    kBaseMeanColumn,
    kNewMeanColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole, kNameRole, kIsDeviceRole };

  explicit GroupDeltaModel(QObject* parent = nullptr);

 protected:
  int rows() const override {
    return static_cast<int>(diff().ops.size() + diff().device_ops.size());
  }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  QVariant extra(int row, int column, int role) const override;
  int decimals(int column) const override;

 private:
  const analyzer::GroupDelta& group(int row) const;
  bool isDevice(int row) const { return static_cast<size_t>(row) >= diff().ops.size(); }
};

/// The findings of both runs: new, worse, fixed, better, then unchanged (the diff's order) —
/// of two traces (the rules) or of two jobs (the job rules, job_comparison.h).
class FindingDeltaModel final : public ResultTableModel {
  Q_OBJECT

 public:
  enum Column {
    kChangeColumn,
    kCodeColumn,
    kMessageColumn,
    kBaseSizeColumn,
    kNewSizeColumn,
    kUnitColumn,
    kColumnCount
  };
  enum Role { kSortRole = kSortValueRole };

  explicit FindingDeltaModel(QObject* parent = nullptr);

  /// Shows `findings` (kept alive by the pointer: an aliasing pointer into a comparison);
  /// nullptr clears the table.
  void setFindings(std::shared_ptr<const std::vector<analyzer::FindingDelta>> findings);
  /// The findings of two traces' diff, or of two jobs' (nullptr clears the table).
  void setComparison(std::shared_ptr<const LoadedComparison> comparison);
  void setComparison(std::shared_ptr<const LoadedJobComparison> comparison);

 protected:
  bool hasResult() const override { return findings_ != nullptr; }
  int rows() const override { return static_cast<int>(findings_->size()); }
  QVariant value(int row, int column) const override;
  QString text(int row, int column) const override;
  int decimals(int /*column*/) const override { return 3; }
  bool isNumericColumn(int column) const override {
    return column != kUnitColumn && ResultTableModel::isNumericColumn(column);
  }

 private:
  std::shared_ptr<const std::vector<analyzer::FindingDelta>> findings_;
};

/// "+1.234" / "-0.500" / "0.000": a delta in ms with its sign.
QString signedMs(double ns);
/// The value of a two-run row's Base, New, Delta and Delta (%) cells (`offset` 0..3 from the
/// Base column): ms, and percent of base (none without a base). Shared by the rows of both
/// comparisons (a category, a part of a job's step) and their "step time" rows.
QVariant baseNewDelta(int offset, double base_ns, double next_ns);

/// The colour of a delta cell (Qt::ForegroundRole): slower red, faster green, none within the
/// rounding noise.
QVariant deltaForeground(double delta_ns);

}  // namespace steplint::gui
