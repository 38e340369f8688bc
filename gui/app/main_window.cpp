#include "main_window.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

#include "advice_panel.h"
#include "details_pane.h"
#include "load_progress.h"
#include "overview_page.h"
#include "steplint/gui/event_search.h"
#include "steplint/gui/job_inputs.h"
#include "steplint/gui/selection_and_zoom.h"
#include "steplint/gui/timeline_widget.h"
#include "steplint/gui/trace_loader.h"
#include "windows.h"

namespace steplint::gui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), selection_(new SelectionAndZoom(this)), loader_(new TraceLoader(this)) {
  setWindowTitle(tr("steplint"));
  setAcceptDrops(true);
  buildLayout();
  buildStatusBar();
  buildMenus();
  buildToolBar();
  connectLoader();
  connectViews();
  resize(1400, 900);
}

// The loader first: its worker must be joined before any widget it reports to goes away.
MainWindow::~MainWindow() { delete loader_; }

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (docks_sized_) return;
  docks_sized_ = true;
  // Docks only take sizes once the window has its own: the timeline gets most of the room.
  const auto docks = findChildren<QDockWidget*>();
  for (QDockWidget* dock : docks) {
    if (dockWidgetArea(dock) == Qt::RightDockWidgetArea)
      resizeDocks({dock}, {width() * 2 / 5}, Qt::Horizontal);
    if (dockWidgetArea(dock) == Qt::BottomDockWidgetArea)
      resizeDocks({dock}, {height() / 5}, Qt::Vertical);
  }
}

void MainWindow::buildLayout() {
  timeline_ = new TimelineWidget(selection_, this);
  overview_ = new OverviewPage(this);
  tabs_ = new QTabWidget(this);
  tabs_->setDocumentMode(true);
  tabs_->addTab(timeline_, tr("Timeline"));
  tabs_->addTab(overview_, tr("Overview"));
  setCentralWidget(tabs_);

  advice_ = new AdvicePanel(selection_, this);
  auto* advice_dock = new QDockWidget(tr("Advice"), this);
  advice_dock->setObjectName(QStringLiteral("adviceDock"));  // saveState() keys docks by name
  advice_dock->setWidget(advice_);
  addDockWidget(Qt::RightDockWidgetArea, advice_dock);

  details_ = new DetailsPane(selection_, this);
  auto* details_dock = new QDockWidget(tr("Details"), this);
  details_dock->setObjectName(QStringLiteral("detailsDock"));
  details_dock->setWidget(details_);
  addDockWidget(Qt::BottomDockWidgetArea, details_dock);
}

void MainWindow::connectViews() {
  // A finding's zoom is only seen on the timeline: bring it to the front.
  connect(selection_, &SelectionAndZoom::selectedFindingChanged, this, [this](int finding) {
    if (finding >= 0) tabs_->setCurrentWidget(timeline_);
  });
  // Overview rows lead to the timeline: a step zooms to it, an op or kernel is searched for.
  connect(overview_, &OverviewPage::stepActivated, this, [this](qint64 start_ns, qint64 end_ns) {
    selection_->zoomTo({start_ns, end_ns}, 0.02);
    tabs_->setCurrentWidget(timeline_);
  });
  connect(overview_, &OverviewPage::nameActivated, this, [this](const QString& name) {
    search_->setText(name);
    selection_->selectEvent(trace::kNoIndex);  // from the first occurrence
    findNext();
  });
  // A double-click in the timeline (Perfetto/Nsight habit) zooms to the event.
  connect(timeline_, &TimelineWidget::eventActivated, this, [this](uint32_t event) {
    if (trace_) selectAndZoomToEvent(*selection_, trace_->model, event);
  });
}

void MainWindow::buildStatusBar() {
  status_note_ = new QLabel(this);
  status_note_->setTextFormat(Qt::RichText);
  connect(status_note_, &QLabel::linkActivated, this, [this] {
    advice_->tabs()->setCurrentIndex(2);  // the "Trace health" list
    advice_->parentWidget()->show();
  });
  statusBar()->addWidget(status_note_, 1);
  progress_ = new LoadProgress(statusBar());
  progress_->track(loader_);
}

void MainWindow::connectLoader() {
  // The loader reports on this thread once its worker is done (BackgroundLoader).
  connect(loader_, &TraceLoader::loaded, this, [this](std::shared_ptr<const LoadedTrace> trace) {
    addRecentFile(QString::fromStdString(trace->path));
    setTrace(std::move(trace));
  });
  connect(loader_, &TraceLoader::failed, this, &MainWindow::showError);
  connect(loader_, &TraceLoader::cancelled, this,
          [this] { statusBar()->showMessage(tr("Loading cancelled"), 5000); });
}

void MainWindow::openFile(const QString& given) {
  if (given.isEmpty()) return;
  // A single-process run's log folder opens as its one trace; a job's folder in the ranks
  // view, in a window of its own.
  const QString path = singleRunTrace(given);
  if (QFileInfo(path).isDir()) {
    openJobWindow({path});
    return;
  }
  loading_path_ = path;
  statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
  loader_->load(path);
}

void MainWindow::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  trace_ = std::move(trace);
  if (trace_) {
    const auto [start, end] = trace_->model.timeRange();
    selection_->reset({start, end});
  } else {
    selection_->reset({0, 1});
  }
  timeline_->setTrace(trace_);
  advice_->setTrace(trace_);
  details_->setTrace(trace_);
  overview_->setTrace(trace_);
  if (trace_) timeline_->setFocus();  // W/A/S/D work straight away, as in Perfetto
  const QString name =
      trace_ ? QFileInfo(QString::fromStdString(trace_->path)).fileName() : QString();
  setWindowTitle(name.isEmpty() ? tr("steplint") : tr("%1 — steplint").arg(name));
  updateStatusNote();
}

void MainWindow::updateStatusNote() {
  if (!trace_) {
    status_note_->setText(tr("No trace loaded: File > Open, or drop a trace here"));
    return;
  }
  QString note = tr("%1 events · %2 findings · loaded in %3 s")
                     .arg(trace_->model.events.size())
                     .arg(trace_->lint.diagnostics.size())
                     .arg(trace_->load_seconds, 0, 'f', 2);
  // The label is rich text (for the warnings link): a path may hold '&' or '<'.
  if (!trace_->config_file.empty())
    note += tr(" · config %1").arg(QString::fromStdString(trace_->config_file).toHtmlEscaped());
  if (!trace_->warnings.empty()) {
    note +=
        tr(" · <a href=\"health\">⚠ %1 import/config warning(s)</a>").arg(trace_->warnings.size());
  }
  status_note_->setText(note);
}

void MainWindow::showError(const QString& message) {
  last_error_ = message;
  statusBar()->showMessage(message, 10000);
  if (error_dialogs_) QMessageBox::critical(this, tr("Cannot open trace"), message);
}

bool MainWindow::findNext() {
  const QString text = search_->text().trimmed();
  if (!trace_ || text.isEmpty()) return false;
  const uint32_t next =
      findNextEvent(trace_->model, text.toStdString(), selection_->selectedEvent());
  if (next == trace::kNoIndex) {
    statusBar()->showMessage(tr("No event name contains \"%1\"").arg(text), 5000);
    return false;
  }
  selectAndZoomToEvent(*selection_, trace_->model, next);
  tabs_->setCurrentWidget(timeline_);
  return true;
}

}  // namespace steplint::gui
