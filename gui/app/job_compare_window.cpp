#include "job_compare_window.h"

#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "compare_window.h"
#include "load_progress.h"
#include "stats_table.h"
#include "steplint/gui/comparison_models.h"
#include "steplint/gui/job_comparison_models.h"

namespace steplint::gui {
namespace {

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

}  // namespace

JobCompareWindow::JobCompareWindow(QWidget* parent)
    : QMainWindow(parent),
      loader_(new JobComparisonLoader(this)),
      part_model_(new JobPartDeltaModel(this)),
      rank_model_(new RankDeltaModel(this)),
      finding_model_(new FindingDeltaModel(this)) {
  setWindowTitle(tr("steplint — job comparison"));
  auto* central = new QWidget(this);
  header_ = new QLabel(central);
  header_->setTextFormat(Qt::RichText);
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  ranks_ = new StatsTable(tr("Ranks, mean per step (double-click: the rank's two traces compared)"),
                          rank_model_, false, central);
  ranks_->setStretchColumn(RankDeltaModel::kNewLateColumn);
  ranks_->setEmptyText(tr("No rank in either run"));
  ranks_->sortBy(RankDeltaModel::kRankColumn, Qt::AscendingOrder);
  parts_ = new StatsTable(tr("The job's step, mean per rank and step (syncs, host work and idle "
                             "are device time; idle includes syncs and host work)"),
                          part_model_, false, central);
  parts_->sortBy(-1, Qt::AscendingOrder);  // the job report's part order, then the step
  parts_->setSortingEnabled(false);
  tabs_ = new QTabWidget(central);
  tabs_->setDocumentMode(true);
  tabs_->addTab(ranks_, tr("Ranks"));
  tabs_->addTab(parts_, tr("Parts of the step"));
  findings_ = findingDeltaTable(tr("Job findings"), finding_model_, central);
  tabs_->addTab(findings_, tr("Findings"));
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addWidget(header_);
  layout->addWidget(tabs_, 1);
  setCentralWidget(central);
  progress_ = new LoadProgress(statusBar());
  progress_->track(loader_);
  connect(loader_, &JobComparisonLoader::loaded, this, &JobCompareWindow::setComparison);
  connect(loader_, &JobComparisonLoader::failed, this, &JobCompareWindow::showError);
  connect(ranks_, &StatsTable::rowActivated, this, [this](int row) {
    const QModelIndex index = rank_model_->index(row, 0);
    const QString base = index.data(RankDeltaModel::kBaseSourceRole).toString();
    const QString next = index.data(RankDeltaModel::kNewSourceRole).toString();
    if (base.isEmpty() || next.isEmpty()) {
      statusBar()->showMessage(tr("Rank %1 is in one run only: nothing to compare it with")
                                   .arg(index.data(RankDeltaModel::kRankRole).toLongLong()),
                               10000);
      return;
    }
    emit rankComparisonRequested(base, next);
  });
  setComparison(nullptr);
  resize(1400, 800);
}

// The loader first: its worker must be joined before the widgets it reports to go away.
JobCompareWindow::~JobCompareWindow() { delete loader_; }

void JobCompareWindow::openComparison(const QStringList& base, const QStringList& next) {
  statusBar()->showMessage(
      tr("Loading %1 and %2 …").arg(base.join(QLatin1Char(' ')), next.join(QLatin1Char(' '))));
  loader_->load(base, next);
}

void JobCompareWindow::setComparison(std::shared_ptr<const LoadedJobComparison> comparison) {
  comparison_ = std::move(comparison);
  part_model_->setComparison(comparison_);
  rank_model_->setComparison(comparison_);
  finding_model_->setComparison(comparison_);
  header_->setText(headerText());
  if (!comparison_) return;
  statusBar()->clearMessage();
  setWindowTitle(tr("%1 vs %2 — steplint")
                     .arg(QString::fromStdString(comparison_->diff.base_source),
                          QString::fromStdString(comparison_->diff.new_source)));
  emit comparisonShown();
}

QString JobCompareWindow::headerText() const {
  if (!comparison_)
    return last_error_.isEmpty() ? tr("<b>No comparison loaded</b>") : last_error_.toHtmlEscaped();
  const analyzer::JobDiff& d = comparison_->diff;
  QString text = tr("<b>%1</b><br>BASE %2 (%3 ranks, %4 steps compared) → NEW %5 (%6 ranks, %7 "
                    "steps compared)")
                     .arg(html(analyzer::jobDiffHeadline(d)), html(d.base_source))
                     .arg(d.base.ranks)
                     .arg(d.base.steps)
                     .arg(html(d.new_source))
                     .arg(d.next.ranks)
                     .arg(d.next.steps);
  text += tr("<br>Slowest rank: %1 → %2")
              .arg(html(analyzer::slowestRankText(d.base)), html(analyzer::slowestRankText(d.next)));
  for (const std::string& note : d.notes) text += "<br>⚠ " + html(note);
  for (const std::string& notice : comparison_->notices) text += "<br>⚠ " + html(notice);
  return text;
}

void JobCompareWindow::showError(const QString& message) {
  last_error_ = tr("Cannot compare the jobs: %1").arg(message);
  statusBar()->showMessage(last_error_, 10000);
  setComparison(nullptr);
  if (error_dialogs_) QMessageBox::critical(this, tr("Cannot compare"), last_error_);
}

}  // namespace steplint::gui
