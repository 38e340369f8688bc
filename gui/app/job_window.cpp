#include "job_window.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "advice_panel.h"
#include "aligned_timelines.h"
#include "load_progress.h"
#include "stats_table.h"
#include "steplint/gui/comparison_loader.h"
#include "steplint/gui/format.h"
#include "steplint/gui/job_loader.h"
#include "steplint/gui/job_models.h"

namespace steplint::gui {
namespace {

QString ms(double ns) { return QString::number(ns / 1e6, 'f', 1); }

QString fileName(const std::string& path) {
  return QFileInfo(QString::fromStdString(path)).fileName();
}

QString causeText(analyzer::LateCause cause) {
  const auto name = analyzer::lateCauseName(cause);
  return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString lateTitle(const RankPair& p) {
  return QObject::tr("Rank %1, late: the others waited %2 ms for it in step %3; cause: %4   ·   %5")
      .arg(p.late->rank)
      .arg(ms(static_cast<double>(p.late_step->late_ns)))
      .arg(p.step)
      .arg(lateCauseText(*p.late_step))
      .arg(fileName(p.late->source));
}

QString waitingTitle(const RankPair& p) {
  return QObject::tr("Rank %1, waiting: %2 ms per step inside collectives on average   ·   %3")
      .arg(p.waiting->rank)
      .arg(ms(p.waiting->wait_ns))
      .arg(fileName(p.waiting->source));
}

}  // namespace

JobWindow::JobWindow(QWidget* parent)
    : QMainWindow(parent),
      loader_(new JobLoader(this)),
      pair_loader_(new ComparisonLoader(this)),
      ranks_model_(new RanksModel(this)),
      steps_model_(new JobStepsModel(this)) {
  setWindowTitle(tr("steplint — job"));
  main_split_ = new QSplitter(Qt::Vertical, this);
  main_split_->addWidget(buildTop());
  pair_ = new AlignedTimelines(main_split_);
  main_split_->addWidget(pair_);
  setCentralWidget(main_split_);
  progress_ = new LoadProgress(statusBar());
  connectLoaders();
  connectSelections();
  setJob(nullptr);
  resize(1400, 900);
}

// The loaders first: their workers must be joined before the widgets they report to go away.
JobWindow::~JobWindow() {
  delete loader_;
  delete pair_loader_;
}

QWidget* JobWindow::buildTop() {
  auto* top = new QWidget(this);
  header_ = new QLabel(top);
  header_->setTextFormat(Qt::RichText);
  header_->setWordWrap(true);
  job_box_ = new QComboBox(top);
  connect(job_box_, &QComboBox::activated, this, [this](int index) { setJob(job_, index); });
  notice_ = new QLabel(top);
  notice_->setTextFormat(Qt::RichText);
  notice_->setWordWrap(true);
  notice_->setStyleSheet(
      QStringLiteral("background: #fff4d6; border: 1px solid #e0b84c; padding: 4px;"));
  connect(notice_, &QLabel::linkActivated, this,
          [this](const QString& link) { emit traceRequested(link); });

  ranks_table_ =
      new StatsTable(tr("Ranks (mean per step, ms; syncs, host work and idle are device time)"),
                     ranks_model_, false, top);
  ranks_table_->setStretchColumn(RanksModel::kSourceColumn);
  ranks_table_->setEmptyText(tr("No rank"));
  ranks_table_->sortBy(RanksModel::kRankColumn, Qt::AscendingOrder);
  steps_table_ =
      new StatsTable(tr("Steps compared on every rank (select a late one to see it below)"),
                     steps_model_, false, top);
  steps_table_->setStretchColumn(JobStepsModel::kCauseColumn);
  steps_table_->setEmptyText(tr("No step is recorded on every rank"));
  steps_table_->sortBy(JobStepsModel::kStepColumn, Qt::AscendingOrder);
  advice_ = new AdvicePanel(nullptr, top);

  // Tabs, not a splitter: the two timelines below need the height more than the steps table.
  table_tabs_ = new QTabWidget(top);
  table_tabs_->setDocumentMode(true);
  table_tabs_->addTab(ranks_table_, tr("Ranks"));
  table_tabs_->addTab(steps_table_, tr("Steps"));
  columns_ = new QSplitter(Qt::Horizontal, top);
  columns_->addWidget(table_tabs_);
  columns_->addWidget(advice_);

  auto* heading = new QHBoxLayout;
  heading->addWidget(header_, 1);
  heading->addWidget(job_box_);
  auto* layout = new QVBoxLayout(top);
  layout->setContentsMargins(4, 4, 4, 0);
  layout->addLayout(heading);
  layout->addWidget(notice_);
  layout->addWidget(columns_, 1);
  return top;
}

void JobWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (sized_) return;
  sized_ = true;
  main_split_->setSizes({height() * 3 / 8, height() * 5 / 8});  // the two timelines need the room
  columns_->setSizes({width() * 3 / 5, width() * 2 / 5});       // the findings' messages need some
}

void JobWindow::connectLoaders() {
  progress_->track(loader_);
  progress_->track(pair_loader_);
  connect(loader_, &JobLoader::loaded, this,
          [this](std::shared_ptr<const LoadedJob> job) { setJob(std::move(job)); });
  connect(loader_, &JobLoader::failed, this, [this](const QString& message) {
    showError(tr("Cannot open the job: %1").arg(message));
  });
  connect(pair_loader_, &ComparisonLoader::loaded, this, &JobWindow::onPairLoaded);
  connect(pair_loader_, &ComparisonLoader::failed, this, [this](const QString& message) {
    pending_pair_.reset();
    pair_->showMessage(tr("Cannot show the two ranks: %1").arg(message));
  });
  connect(pair_loader_, &ComparisonLoader::cancelled, this,
          [this] { pair_->showMessage(tr("Loading cancelled")); });
}

void JobWindow::connectSelections() {
  connect(advice_, &AdvicePanel::findingSelected, this, [this](int index) {
    const analyzer::JobAnalysis* job = analysis();
    if (job == nullptr || index < 0) return;
    const analyzer::Diagnostic& d =
        job_->lint[static_cast<size_t>(job_index_)].diagnostics[static_cast<size_t>(index)];
    if (auto pair = rankPairForFinding(*job, d))
      showRankPair(*pair);
    else
      pair_->showMessage(tr("%1 names no late rank: nothing to compare step by step.")
                             .arg(QString::fromStdString(d.code)));
  });
  QTableView* steps = steps_table_->view();
  connect(steps->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            const analyzer::JobAnalysis* job = analysis();
            if (job == nullptr || !current.isValid()) return;
            const qlonglong number = current.data(JobStepsModel::kStepRole).toLongLong();
            if (auto pair = rankPairForStep(*job, number))
              showRankPair(*pair);
            else
              pair_->showMessage(
                  tr("No rank was late in step %1 beyond the noise between ranks.").arg(number));
          });
  connect(ranks_table_, &StatsTable::rowActivated, this, [this](int row) {
    emit traceRequested(ranks_model_->index(row, 0).data(RanksModel::kSourceRole).toString());
  });
}

void JobWindow::openJob(const QStringList& paths) {
  statusBar()->showMessage(tr("Loading %1 …").arg(paths.join(QStringLiteral(", "))));
  loader_->load(paths);
}

const analyzer::JobAnalysis* JobWindow::analysis() const {
  return job_ && job_index_ < static_cast<int>(job_->jobs.size())
             ? &job_->jobs[static_cast<size_t>(job_index_)]
             : nullptr;
}

void JobWindow::setJob(std::shared_ptr<const LoadedJob> job, int index) {
  job_ = std::move(job);
  job_index_ = index;
  pending_pair_.reset();
  ranks_model_->setJob(job_, static_cast<size_t>(index));
  steps_model_->setJob(job_, static_cast<size_t>(index));
  job_box_->clear();
  if (job_)
    for (const analyzer::JobAnalysis& j : job_->jobs)
      job_box_->addItem(
          tr("%1 (%2 ranks)").arg(QString::fromStdString(j.identity)).arg(j.ranks.size()));
  job_box_->setCurrentIndex(index);
  job_box_->setVisible(job_box_->count() > 1);
  const auto i = static_cast<size_t>(index);
  const QString summary = !analysis() ? tr("Open a job: a folder of one trace per rank.")
                          : job_->lint[i].diagnostics.empty()
                              ? tr("**No job findings.**")
                              : tr("Select a finding: a straggler finding shows the "
                                   "late rank's step above a waiting rank's, below.");
  // The files' import warnings and the job analysis's own (missing ranks, unmatched steps).
  std::vector<std::string> warnings = job_ ? job_->warnings : std::vector<std::string>{};
  if (const analyzer::JobAnalysis* a = analysis())
    warnings.insert(warnings.end(), a->warnings.begin(), a->warnings.end());
  advice_->setJobFindings(LoadedJob::findings(job_, i), LoadedJob::notChecked(job_, i), warnings,
                          summary);
  header_->setText(headerText());
  updateTabTitles();
  showNotices();
  pair_->showMessage(pairPlaceholder());
  if (job_)
    setWindowTitle(tr("%1 — steplint job")
                       .arg(QString::fromStdString(analysis() ? analysis()->identity : "")));
}

int64_t JobWindow::lateSteps() const {
  int64_t late = 0;
  if (const analyzer::JobAnalysis* a = analysis())
    for (const analyzer::JobStep& s : a->steps) late += s.straggler >= 0;
  return late;
}

void JobWindow::updateTabTitles() {
  const analyzer::JobAnalysis* a = analysis();
  table_tabs_->setTabText(0, tr("Ranks (%1)").arg(a ? a->ranks.size() : 0));
  table_tabs_->setTabText(
      1, tr("Steps (%1, %2 with a late rank)").arg(a ? a->steps.size() : 0).arg(lateSteps()));
}

QString JobWindow::pairPlaceholder() const {
  const analyzer::JobAnalysis* a = analysis();
  if (a == nullptr) return {};
  if (a->ranks.size() < 2) return tr("One rank: there is no other rank to show beside it.");
  if (lateSteps() == 0)
    return tr("No rank kept the others waiting in any step: there is no late step to show.");
  return tr(
      "Select the straggler finding, or a step with a late rank (Steps tab), to see the late rank's step "
      "above a waiting rank's.");
}

QString JobWindow::headerText() const {
  const analyzer::JobAnalysis* a = analysis();
  if (a == nullptr) return tr("<b>No job loaded</b>");
  QString text = tr("<b>Job %1</b>: %2 rank(s)")
                     .arg(QString::fromStdString(a->identity).toHtmlEscaped())
                     .arg(a->ranks.size());
  if (a->world_size > 0) text += tr(" of %1").arg(a->world_size);
  text += tr(", %1 step(s) compared, %2 collective(s) matched, median step %3 ms")
              .arg(a->steps.size())
              .arg(a->matched_collectives)
              .arg(ms(a->median_step_ns));
  if (a->straggler >= 0)
    text +=
        tr("<br><b>Straggler: rank %1</b>, late in %2 of %3 steps by %4 ms on average; cause: %5")
            .arg(a->straggler)
            .arg(a->straggler_steps)
            .arg(a->steps.size())
            .arg(ms(a->mean_late_ns))
            .arg(causeText(a->straggler_cause));
  else if (a->has_collectives && a->ranks.size() >= 2)
    text += tr(
        "<br>No straggler: no rank keeps the others waiting in most steps beyond the noise threshold.");
  return text;
}

void JobWindow::showNotices() {
  if (!job_) {
    notice_->setVisible(!last_error_.isEmpty());
    return;
  }
  QStringList lines;
  for (const std::string& n : jobNotices(*job_, static_cast<size_t>(job_index_)))
    lines << QString::fromStdString(n).toHtmlEscaped();
  const auto open_link = [&lines](const std::string& path) {
    lines << tr("<a href=\"%1\">Open %2 as a single trace</a> for its timeline and findings.")
                 .arg(QString::fromStdString(path).toHtmlEscaped(), fileName(path).toHtmlEscaped());
  };
  const analyzer::JobAnalysis* a = analysis();
  if (a != nullptr && a->ranks.size() == 1)  // one trace: its own window shows what a job cannot
    open_link(a->ranks.front().source);
  for (const NotARank& t : job_->not_ranks) open_link(t.path);
  notice_->setText(lines.join(QStringLiteral("<br>")));
  notice_->setVisible(!lines.isEmpty());
}

void JobWindow::showError(const QString& message) {
  last_error_ = message;
  statusBar()->showMessage(message, 10000);
  notice_->setText(message.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
  notice_->setVisible(true);
  if (error_dialogs_) QMessageBox::critical(this, tr("Cannot open job"), message);
}

void JobWindow::showRankPair(const RankPair& pair) {
  const bool same = pair_traces_ && pair_traces_->base->path == pair.late->source &&
                    pair_traces_->next->path == pair.waiting->source;
  pending_pair_ = pair;
  if (same) {
    onPairLoaded(pair_traces_);
    return;
  }
  pair_->showMessage(
      tr("Loading rank %1's and rank %2's traces …").arg(pair.late->rank).arg(pair.waiting->rank));
  pair_loader_->load(QString::fromStdString(pair.late->source),
                     QString::fromStdString(pair.waiting->source), false);
}

void JobWindow::onPairLoaded(std::shared_ptr<const LoadedComparison> traces) {
  if (!pending_pair_) return;  // the job changed meanwhile
  const RankPair pair = *pending_pair_;
  pending_pair_.reset();
  pair_traces_ = std::move(traces);
  pair_->setTraces(pair_traces_->base, lateTitle(pair), pair_traces_->next, waitingTitle(pair));
  if (!pair_->showStep(pair.step))
    statusBar()->showMessage(
        tr("Step %1 is not among rank %2's analysed steps").arg(pair.step).arg(pair.late->rank),
        10000);
  emit rankPairShown();
}

}  // namespace steplint::gui
