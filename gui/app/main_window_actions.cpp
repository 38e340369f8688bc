// MainWindow's menus, toolbar, keyboard shortcuts, recent files, drag and drop and settings.
#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>

#include "advice_panel.h"
#include "main_window.h"
#include "steplint/gui/job_inputs.h"
#include "steplint/gui/selection_and_zoom.h"
#include "steplint/gui/timeline_widget.h"
#include "windows.h"

namespace steplint::gui {
namespace {

constexpr int kMaxRecentFiles = 10;

}  // namespace

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseFile);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  file->addAction(tr("Open &Job Folder…"), QKeySequence(tr("Ctrl+J")), this,
                  &MainWindow::chooseJobFolder);
  file->addAction(tr("&Compare Traces…"), QKeySequence(tr("Ctrl+D")), this,
                  &MainWindow::chooseComparison);
  file->addAction(tr("Compare Job &Folders…"), QKeySequence(tr("Ctrl+Shift+D")), this,
                  &MainWindow::chooseJobComparison);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Timeline"), QKeySequence(tr("Ctrl+1")), this,
                  [this] { tabs_->setCurrentIndex(0); });
  view->addAction(tr("&Overview"), QKeySequence(tr("Ctrl+2")), this,
                  [this] { tabs_->setCurrentIndex(1); });
  view->addSeparator();
  view->addAction(tr("Zoom to &whole trace"), QKeySequence(tr("Ctrl+0")), this,
                  [this] { selection_->zoomToFull(); });
  // Only modified keys here: plain keys (W/A/S/D, Z, F, 0, Backspace, Esc) belong to the
  // timeline, and a window shortcut would take them from it.
  view->addAction(tr("&Undo zoom"), QKeySequence::Undo, this, [this] { selection_->undoZoom(); });
  view->addAction(tr("Zoom to &selected event"), this, [this] {
    const uint32_t e = selection_->selectedEvent();
    if (trace_ && e < trace_->model.events.size())
      selection_->zoomTo({trace_->model.events[e].start_ns, trace_->model.events[e].end_ns()}, 1.0);
  });
  view->addAction(tr("&Clear selection"), this,
                  [this] { selection_->selectEvent(trace::kNoIndex); });
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  rebuildRecentMenu();
}

void MainWindow::buildToolBar() {
  QToolBar* bar = addToolBar(tr("Search"));
  bar->setObjectName(QStringLiteral("searchToolBar"));
  bar->setMovable(false);
  bar->addAction(tr("Open…"), this, &MainWindow::chooseFile);
  bar->addSeparator();
  search_ = new QLineEdit(bar);
  search_->setPlaceholderText(tr("Search events by name (Ctrl+F, Enter: next)"));
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(420);
  bar->addWidget(search_);
  connect(search_, &QLineEdit::textChanged, selection_, &SelectionAndZoom::setSearchText);
  connect(search_, &QLineEdit::returnPressed, this, &MainWindow::findNext);
  // Esc leaves the search box for the timeline, so W/A/S/D navigate again (Perfetto habit).
  auto* leave =
      new QShortcut(QKeySequence(Qt::Key_Escape), search_, nullptr, nullptr, Qt::WidgetShortcut);
  connect(leave, &QShortcut::activated, this,
          [this] { timeline_->setFocus(Qt::ShortcutFocusReason); });
  auto* focus = new QAction(tr("Find"), this);
  focus->setShortcut(QKeySequence::Find);
  connect(focus, &QAction::triggered, this, [this] {
    search_->setFocus(Qt::ShortcutFocusReason);
    search_->selectAll();
  });
  addAction(focus);
  auto* next = new QAction(tr("Find next"), this);
  next->setShortcut(QKeySequence::FindNext);  // F3, Ctrl+G
  connect(next, &QAction::triggered, this, &MainWindow::findNext);
  addAction(next);
}

void MainWindow::chooseFile() {
  const QString dir =
      recent_files_.isEmpty() ? QString() : QFileInfo(recent_files_.first()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), dir,
                                                    tr("Traces (*.json *.json.gz);;All files (*)"));
  openFile(path);
}

void MainWindow::chooseJobFolder() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Open a job: the folder of its ranks' traces"));
  openFile(dir);  // a single-process run's log folder opens as its trace
}

// BASE is the open trace when there is one: "compare this run with …".
void MainWindow::chooseComparison() {
  const QString filter = tr("Traces (*.json *.json.gz);;All files (*)");
  QString base = trace_ ? QString::fromStdString(trace_->path) : QString();
  if (base.isEmpty())
    base = QFileDialog::getOpenFileName(
        this, tr("Compare: choose BASE, the run to compare against"), {}, filter);
  if (base.isEmpty()) return;
  const QString next = QFileDialog::getOpenFileName(
      this, tr("Compare with %1: choose NEW").arg(QFileInfo(base).fileName()),
      QFileInfo(base).absolutePath(), filter);
  if (!next.isEmpty()) openCompareWindow(base, next);
}

void MainWindow::chooseJobComparison() {
  const QString base = QFileDialog::getExistingDirectory(
      this, tr("Compare jobs: choose BASE, the folder of the run to compare against"));
  if (base.isEmpty()) return;
  const QString next = QFileDialog::getExistingDirectory(
      this, tr("Compare with %1: choose NEW's folder").arg(QFileInfo(base).fileName()),
      QFileInfo(base).absolutePath());
  if (next.isEmpty()) return;
  // Two single-process runs' folders: their two traces are compared, as `steplint diff` does.
  const QString base_trace = singleRunTrace(base), new_trace = singleRunTrace(next);
  if (base_trace != base && new_trace != next)
    openCompareWindow(base_trace, new_trace);
  else
    openJobCompareWindow({base}, {next});
}

void MainWindow::addRecentFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent_files_.removeAll(absolute);
  recent_files_.prepend(absolute);
  while (recent_files_.size() > kMaxRecentFiles) recent_files_.removeLast();
  rebuildRecentMenu();
  if (persistent_) QSettings().setValue(QStringLiteral("recentFiles"), recent_files_);
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  for (const QString& path : recent_files_) {
    const QFileInfo info(path);
    const QString label = info.fileName() + QStringLiteral("  —  ") + info.absolutePath();
    recent_menu_->addAction(label, this, [this, path] { openFile(path); });
  }
  recent_menu_->setEnabled(!recent_files_.isEmpty());
}

void MainWindow::setPersistent(bool persistent) {
  persistent_ = persistent;
  if (persistent_) restoreSettings();
}

void MainWindow::restoreSettings() {
  QSettings settings;
  recent_files_ = settings.value(QStringLiteral("recentFiles")).toStringList();
  rebuildRecentMenu();
  restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
  if (restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray()))
    docks_sized_ = true;
  advice_->splitter()->restoreState(
      settings.value(QStringLiteral("advice/splitter")).toByteArray());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("mainWindow/state"), saveState());
  settings.setValue(QStringLiteral("advice/splitter"), advice_->splitter()->saveState());
  settings.setValue(QStringLiteral("recentFiles"), recent_files_);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (persistent_) saveSettings();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile())
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  event->acceptProposedAction();
  QStringList paths;
  for (const QUrl& url : urls)
    if (url.isLocalFile()) paths << url.toLocalFile();
  if (paths.size() > 1)
    openJobWindow(paths);  // several ranks' traces
  else
    openFile(paths.first());  // a trace, or a folder: a job's or a single run's
}

}  // namespace steplint::gui
