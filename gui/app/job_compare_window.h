// The job comparison view: two runs of a distributed job (`steplint-gui --compare BASE_DIR
// NEW_DIR`). The verdict (the job's step change and whether it is beyond the step-to-step
// noise), the rank the others waited for in each run, the job's parts side by side and each
// rank's change — the numbers of `steplint diff BASE_DIR NEW_DIR` (analyzer/job_diff.h), never
// recomputed here. A rank double-clicked opens its two traces in the trace comparison.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "steplint/gui/job_comparison.h"

class QLabel;
class QTabWidget;

namespace steplint::gui {

class JobComparisonLoader;
class FindingDeltaModel;
class JobPartDeltaModel;
class LoadProgress;
class RankDeltaModel;
class StatsTable;

class JobCompareWindow final : public QMainWindow {
  Q_OBJECT

 public:
  explicit JobCompareWindow(QWidget* parent = nullptr);
  ~JobCompareWindow() override;

  /// Loads both jobs (folders, globs or trace lists) and their diff in the background.
  void openComparison(const QStringList& base, const QStringList& next);
  /// Shows an already loaded comparison (screenshots and tests).
  void setComparison(std::shared_ptr<const LoadedJobComparison> comparison);
  std::shared_ptr<const LoadedJobComparison> comparison() const { return comparison_; }

  void setErrorDialogsEnabled(bool enabled) { error_dialogs_ = enabled; }
  QString lastError() const { return last_error_; }

  enum Tab { kRanksTab, kPartsTab, kFindingsTab };
  QTabWidget* tabs() const { return tabs_; }
  StatsTable* partTable() const { return parts_; }
  StatsTable* rankTable() const { return ranks_; }
  StatsTable* findingTable() const { return findings_; }
  QLabel* headerLabel() const { return header_; }

 signals:
  void comparisonShown();
  /// The user asked for one rank's two traces side by side (double-click on a rank in both runs).
  void rankComparisonRequested(const QString& base, const QString& next);

 private:
  void showError(const QString& message);
  QString headerText() const;

  JobComparisonLoader* loader_;
  JobPartDeltaModel* part_model_;
  RankDeltaModel* rank_model_;
  FindingDeltaModel* finding_model_;
  std::shared_ptr<const LoadedJobComparison> comparison_;
  QLabel* header_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  StatsTable* parts_ = nullptr;
  StatsTable* ranks_ = nullptr;
  StatsTable* findings_ = nullptr;
  LoadProgress* progress_ = nullptr;
  QString last_error_;
  bool error_dialogs_ = false;
};

}  // namespace steplint::gui
