#include "compare_window.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "aligned_timelines.h"
#include "breakdown_chart.h"
#include "load_progress.h"
#include "stats_table.h"
#include "steplint/gui/comparison_loader.h"
#include "steplint/gui/comparison_models.h"
#include "steplint/gui/selection_and_zoom.h"

namespace steplint::gui {
namespace {

QString fileName(const std::string& path) {
  return QFileInfo(QString::fromStdString(path)).fileName();
}

QString runTitle(const char* role, const LoadedTrace& t) {
  return QObject::tr("%1: %2   ·   %3 steps, %4 ms per step on average")
      .arg(QLatin1String(role), fileName(t.path))
      .arg(t.summary.steps.steps.size())
      .arg(t.summary.breakdown.average_total_ns / 1e6, 0, 'f', 1);
}

QString percentText(double fraction) {
  return QString::number(100.0 * fraction, 'f', 0) + QStringLiteral(" %");
}

}  // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QMainWindow(parent),
      loader_(new ComparisonLoader(this)),
      category_model_(new CategoryDeltaModel(this)),
      step_model_(new StepPairModel(this)),
      op_model_(new GroupDeltaModel(this)),
      finding_model_(new FindingDeltaModel(this)) {
  setWindowTitle(tr("steplint — comparison"));
  auto* central = new QWidget(this);
  header_ = new QLabel(central);
  header_->setTextFormat(Qt::RichText);
  header_->setWordWrap(true);
  timelines_ = new AlignedTimelines(central);
  tabs_ = new QTabWidget(central);
  tabs_->setDocumentMode(true);
  tabs_->addTab(timelines_, tr("Timelines"));
  tabs_->addTab(buildStepsPage(), tr("Steps"));
  tabs_->addTab(buildOpsPage(), tr("Ops and kernels"));
  findings_ = findingDeltaTable(tr("Findings"), finding_model_, central);
  tabs_->addTab(findings_, tr("Findings"));
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addWidget(header_);
  layout->addWidget(tabs_, 1);
  setCentralWidget(central);
  progress_ = new LoadProgress(statusBar());
  progress_->track(loader_);
  connect(loader_, &ComparisonLoader::loaded, this, &CompareWindow::setComparison);
  connect(loader_, &ComparisonLoader::failed, this, &CompareWindow::showError);
  connectActivation();
  setComparison(nullptr);
  resize(1400, 900);
}

StatsTable* findingDeltaTable(const QString& what, FindingDeltaModel* model, QWidget* parent) {
  auto* table = new StatsTable(
      QObject::tr("%1: new, worse, fixed, better, unchanged (size: the rule's figure)").arg(what),
      model, false, parent);
  table->setStretchColumn(FindingDeltaModel::kMessageColumn);
  table->setEmptyText(QObject::tr("No %1 in either run").arg(what.toLower()));
  table->sortBy(-1, Qt::AscendingOrder);  // the diff's order: new, worse, fixed, better, same
  return table;
}

// The loader first: its worker must be joined before the widgets it reports to go away.
CompareWindow::~CompareWindow() { delete loader_; }

QWidget* CompareWindow::buildStepsPage() {
  auto* page = new QWidget(this);
  base_chart_ = new BreakdownChart(page);
  new_chart_ = new BreakdownChart(page);
  categories_ =
      new StatsTable(tr("Step-time breakdown (ms per step)"), category_model_, false, page);
  categories_->sortBy(-1,
                      Qt::AscendingOrder);  // category order, as the chart's legend, then the step
  categories_->setSortingEnabled(false);
  steps_ = new StatsTable(
      tr("Per step, matched by step number (double-click: both timelines at that step)"),
      step_model_, false, page);
  steps_->setStretchColumn(StepPairModel::kMovedColumn);
  steps_->setEmptyText(tr("No steps in either run"));
  steps_->sortBy(StepPairModel::kStepColumn, Qt::AscendingOrder);
  auto* grid = new QGridLayout(page);
  grid->addWidget(new QLabel(tr("<b>Base</b>"), page), 0, 0);
  grid->addWidget(new QLabel(tr("<b>New</b>"), page), 0, 1);
  grid->addWidget(base_chart_, 1, 0);
  grid->addWidget(new_chart_, 1, 1);
  grid->addWidget(categories_, 2, 0);
  grid->addWidget(steps_, 2, 1);
  grid->setRowStretch(1, 3);
  grid->setRowStretch(2, 2);
  return page;
}

QWidget* CompareWindow::buildOpsPage() {
  ops_ = new StatsTable(
      tr("CPU ops and device ops per step, largest change first (double-click: find in both "
         "timelines)"),
      op_model_, true, this);
  ops_->proxy()->setFilterKeyColumn(GroupDeltaModel::kNameColumn);
  ops_->setStretchColumn(GroupDeltaModel::kNameColumn);
  ops_->view()->setColumnHidden(GroupDeltaModel::kAbsDeltaColumn, true);
  ops_->sortBy(GroupDeltaModel::kAbsDeltaColumn);
  ops_->setEmptyText(tr("No ops in either run"));
  return ops_;
}

void CompareWindow::connectActivation() {
  connect(steps_, &StatsTable::rowActivated, this, [this](int row) {
    tabs_->setCurrentIndex(kTimelinesTab);
    timelines_->showStep(step_model_->index(row, 0).data(StepPairModel::kStepRole).toLongLong());
  });
  connect(ops_, &StatsTable::rowActivated, this, [this](int row) {
    const QString name = op_model_->index(row, 0).data(GroupDeltaModel::kNameRole).toString();
    timelines_->upperSelection()->setSearchText(name);  // both timelines mark the op's events
    timelines_->lowerSelection()->setSearchText(name);
    tabs_->setCurrentIndex(kTimelinesTab);
  });
}

void CompareWindow::openComparison(const QString& base, const QString& next) {
  statusBar()->showMessage(
      tr("Loading %1 and %2 …").arg(QFileInfo(base).fileName(), QFileInfo(next).fileName()));
  loader_->load(base, next);
}

void CompareWindow::setComparison(std::shared_ptr<const LoadedComparison> comparison) {
  comparison_ = std::move(comparison);
  category_model_->setComparison(comparison_);
  step_model_->setComparison(comparison_);
  op_model_->setComparison(comparison_);
  finding_model_->setComparison(comparison_);
  header_->setText(headerText());
  if (!comparison_) {
    timelines_->showMessage(last_error_.isEmpty() ? tr("Open two traces: File > Compare traces…")
                                                  : last_error_);
    return;
  }
  timelines_->setTraces(comparison_->base, runTitle("BASE", *comparison_->base), comparison_->next,
                        runTitle("NEW", *comparison_->next));
  if (!comparison_->base->summary.steps.steps.empty())
    timelines_->showStep(comparison_->base->summary.steps.steps.front().number);
  base_chart_->setBreakdown(comparison_->base->summary.breakdown);
  new_chart_->setBreakdown(comparison_->next->summary.breakdown);
  const double scale = std::max(base_chart_->largestBarMs(), new_chart_->largestBarMs());
  base_chart_->setScaleMs(scale);  // one scale: a taller bar is a longer step
  new_chart_->setScaleMs(scale);
  setWindowTitle(tr("%1 vs %2 — steplint")
                     .arg(fileName(comparison_->base->path), fileName(comparison_->next->path)));
  emit comparisonShown();
}

QString CompareWindow::headerText() const {
  if (!comparison_)
    return last_error_.isEmpty() ? tr("<b>No comparison loaded</b>") : last_error_.toHtmlEscaped();
  const analyzer::RunDiff& d = comparison_->diff;
  QString text = tr("<b>%1</b><br>BASE %2 → NEW %3")
                     .arg(QString::fromStdString(analyzer::runDiffHeadline(d)).toHtmlEscaped(),
                          QString::fromStdString(d.base_source).toHtmlEscaped(),
                          QString::fromStdString(d.new_source).toHtmlEscaped());
  if (d.matched_device_fraction >= 0)
    text += tr(" · device time in ops found in both runs: %1")
                .arg(percentText(d.matched_device_fraction));
  for (const std::string& note : d.notes)
    text += "<br>⚠ " + QString::fromStdString(note).toHtmlEscaped();
  return text;
}

void CompareWindow::showError(const QString& message) {
  last_error_ = tr("Cannot compare: %1").arg(message);
  statusBar()->showMessage(last_error_, 10000);
  setComparison(nullptr);
  if (error_dialogs_) QMessageBox::critical(this, tr("Cannot compare"), last_error_);
}

}  // namespace steplint::gui
