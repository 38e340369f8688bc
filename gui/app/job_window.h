// The ranks view: one distributed job opened from a folder, a glob or several traces
// (`steplint-gui DIR`). The per-rank table and the steps with their late rank on the left,
// the job findings (SL7xx) on the right, and below them the late rank's step above a waiting
// rank's step, each zoomed to that step, when a straggler finding or a late step is selected.
// The numbers are the analyzer's job analysis (analyzer/job.h), never recomputed here.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>

#include "steplint/gui/loaded_comparison.h"
#include "steplint/gui/loaded_job.h"
#include "steplint/gui/rank_pair.h"

class QComboBox;
class QLabel;
class QSplitter;
class QTabWidget;

namespace steplint::gui {

class AdvicePanel;
class AlignedTimelines;
class ComparisonLoader;
class JobLoader;
class JobStepsModel;
class LoadProgress;
class RanksModel;
class StatsTable;

class JobWindow final : public QMainWindow {
  Q_OBJECT

 public:
  explicit JobWindow(QWidget* parent = nullptr);
  ~JobWindow() override;

  /// Loads the job named by `paths` (folders, globs, files) in the background.
  void openJob(const QStringList& paths);
  /// Shows jobs[index] of an already loaded job (screenshots and tests call this directly).
  void setJob(std::shared_ptr<const LoadedJob> job, int index = 0);
  std::shared_ptr<const LoadedJob> job() const { return job_; }
  const analyzer::JobAnalysis* analysis() const;

  /// Loads the pair's two traces (unless they are the ones shown) and zooms both to its step.
  void showRankPair(const RankPair& pair);

  void setErrorDialogsEnabled(bool enabled) { error_dialogs_ = enabled; }
  QString lastError() const { return last_error_; }

  StatsTable* ranksTable() const { return ranks_table_; }
  StatsTable* stepsTable() const { return steps_table_; }
  AdvicePanel* advicePanel() const { return advice_; }
  AlignedTimelines* pairView() const { return pair_; }
  QLabel* noticeLabel() const { return notice_; }
  QComboBox* jobBox() const { return job_box_; }

 signals:
  /// The user asked for one rank's trace in a trace window (double-click on a rank).
  void traceRequested(const QString& path);
  /// The rank pair's timelines are on screen, zoomed to the step (tests, screenshots).
  void rankPairShown();

 protected:
  void showEvent(QShowEvent* event) override;  // first show: splitter sizes

 private:
  QWidget* buildTop();
  void connectLoaders();
  void connectSelections();
  void showNotices();
  void showError(const QString& message);
  void onPairLoaded(std::shared_ptr<const LoadedComparison> pair);
  QString headerText() const;
  void updateTabTitles();
  int64_t lateSteps() const;        // steps of the shown job with a late rank
  QString pairPlaceholder() const;  // what the stacked timelines say before a selection

  JobLoader* loader_;
  ComparisonLoader* pair_loader_;
  RanksModel* ranks_model_;
  JobStepsModel* steps_model_;
  std::shared_ptr<const LoadedJob> job_;
  int job_index_ = 0;
  std::shared_ptr<const LoadedComparison> pair_traces_;  // the two traces shown below
  std::optional<RankPair> pending_pair_;                 // being loaded
  QLabel* header_ = nullptr;
  QLabel* notice_ = nullptr;
  QComboBox* job_box_ = nullptr;
  StatsTable* ranks_table_ = nullptr;
  StatsTable* steps_table_ = nullptr;
  AdvicePanel* advice_ = nullptr;
  AlignedTimelines* pair_ = nullptr;
  QSplitter* main_split_ = nullptr;
  QSplitter* columns_ = nullptr;
  QTabWidget* table_tabs_ = nullptr;
  LoadProgress* progress_ = nullptr;
  QString last_error_;
  bool error_dialogs_ = false;
  bool sized_ = false;
};

}  // namespace steplint::gui
