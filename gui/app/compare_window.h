// The comparison view: two runs of a trainer (`steplint-gui --compare BASE NEW`, or File >
// Compare…). Both timelines with their steps aligned (BASE above NEW), the per-step breakdown
// of both side by side, the op and kernel deltas and the findings that changed — the numbers of
// `steplint diff BASE NEW` (analyzer/run_diff.h), never recomputed here.
#pragma once

#include <QMainWindow>
#include <memory>

#include "steplint/gui/loaded_comparison.h"

class QLabel;
class QTabWidget;

namespace steplint::gui {

class AlignedTimelines;
class BreakdownChart;
class CategoryDeltaModel;
class ComparisonLoader;
class FindingDeltaModel;
class GroupDeltaModel;
class LoadProgress;
class StatsTable;
class StepPairModel;

/// The Findings tab of both comparisons (of traces, of jobs): `model`'s rows in the diff's
/// order; `what` names them ("Findings", "Job findings").
StatsTable* findingDeltaTable(const QString& what, FindingDeltaModel* model, QWidget* parent);

class CompareWindow final : public QMainWindow {
  Q_OBJECT

 public:
  explicit CompareWindow(QWidget* parent = nullptr);
  ~CompareWindow() override;

  /// Loads both traces and their diff in the background.
  void openComparison(const QString& base, const QString& next);
  /// Shows an already loaded comparison (screenshots and tests).
  void setComparison(std::shared_ptr<const LoadedComparison> comparison);
  std::shared_ptr<const LoadedComparison> comparison() const { return comparison_; }

  void setErrorDialogsEnabled(bool enabled) { error_dialogs_ = enabled; }
  QString lastError() const { return last_error_; }

  enum Tab { kTimelinesTab, kStepsTab, kOpsTab, kFindingsTab };
  QTabWidget* tabs() const { return tabs_; }
  AlignedTimelines* timelines() const { return timelines_; }
  BreakdownChart* baseChart() const { return base_chart_; }
  BreakdownChart* newChart() const { return new_chart_; }
  StatsTable* categoryTable() const { return categories_; }
  StatsTable* stepTable() const { return steps_; }
  StatsTable* opTable() const { return ops_; }
  StatsTable* findingTable() const { return findings_; }
  QLabel* headerLabel() const { return header_; }

 signals:
  void comparisonShown();

 private:
  QWidget* buildStepsPage();
  QWidget* buildOpsPage();
  void connectActivation();
  void showError(const QString& message);
  QString headerText() const;

  ComparisonLoader* loader_;
  CategoryDeltaModel* category_model_;
  StepPairModel* step_model_;
  GroupDeltaModel* op_model_;
  FindingDeltaModel* finding_model_;
  std::shared_ptr<const LoadedComparison> comparison_;
  QLabel* header_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  AlignedTimelines* timelines_ = nullptr;
  BreakdownChart* base_chart_ = nullptr;
  BreakdownChart* new_chart_ = nullptr;
  StatsTable* categories_ = nullptr;
  StatsTable* steps_ = nullptr;
  StatsTable* ops_ = nullptr;
  StatsTable* findings_ = nullptr;
  LoadProgress* progress_ = nullptr;
  QString last_error_;
  bool error_dialogs_ = false;
};

}  // namespace steplint::gui
