// steplint-gui's main window: the timeline in the centre (with an "Overview" tab beside it),
// the advice panel docked right, the details pane docked below, a toolbar with the event
// search, and a status bar with the load progress, a cancel button and trace-health notes.
// Every view syncs through the one SelectionAndZoom (docs/reference/style.md §2.12).
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "steplint/gui/loaded_trace.h"

class QLabel;
class QLineEdit;
class QMenu;
class QTabWidget;

namespace steplint::gui {

class AdvicePanel;
class DetailsPane;
class LoadProgress;
class OverviewPage;
class SelectionAndZoom;
class TimelineWidget;
class TraceLoader;

class MainWindow final : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Loads `path` in the background (progress bar, cancel button); errors go to showError.
  void openFile(const QString& path);
  /// Shows an already loaded trace (the --screenshot path and tests use this directly).
  void setTrace(std::shared_ptr<const LoadedTrace> trace);
  std::shared_ptr<const LoadedTrace> trace() const { return trace_; }

  /// Persistent windows read and write QSettings (geometry, dock state, splitters, recent
  /// files); off by default so tests and screenshots never touch the user's settings.
  void setPersistent(bool persistent);
  /// Error reporting: a QMessageBox when true (the app), only lastError() and the status
  /// bar when false (tests, screenshots: nothing modal may block them).
  void setErrorDialogsEnabled(bool enabled) { error_dialogs_ = enabled; }
  QString lastError() const { return last_error_; }
  QStringList recentFiles() const { return recent_files_; }

  /// The search box's "Enter": selects and zooms to the next event whose name contains the
  /// search text, after the current selection. False when nothing matches.
  bool findNext();

  SelectionAndZoom* selection() const { return selection_; }
  AdvicePanel* advicePanel() const { return advice_; }
  DetailsPane* detailsPane() const { return details_; }
  OverviewPage* overviewPage() const { return overview_; }
  TimelineWidget* timeline() const { return timeline_; }
  QLineEdit* searchEdit() const { return search_; }
  QTabWidget* centralTabs() const { return tabs_; }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;  // first show: default dock sizes
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildLayout();
  void buildStatusBar();
  void buildMenus();
  void buildToolBar();
  void connectLoader();
  void connectViews();  // view-to-view hand-offs that go beyond SelectionAndZoom
  void showError(const QString& message);
  void chooseFile();
  void chooseJobFolder();
  void chooseComparison();
  void chooseJobComparison();  // two job folders: BASE, then NEW
  void addRecentFile(const QString& path);
  void rebuildRecentMenu();
  void saveSettings() const;
  void restoreSettings();
  void updateStatusNote();

  SelectionAndZoom* selection_;
  TraceLoader* loader_;
  std::shared_ptr<const LoadedTrace> trace_;
  TimelineWidget* timeline_ = nullptr;
  OverviewPage* overview_ = nullptr;
  AdvicePanel* advice_ = nullptr;
  DetailsPane* details_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QLineEdit* search_ = nullptr;
  LoadProgress* progress_ = nullptr;
  QLabel* status_note_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QStringList recent_files_;
  QString loading_path_;
  QString last_error_;
  bool persistent_ = false;
  bool error_dialogs_ = false;
  bool docks_sized_ = false;  // by the first show or by restored settings
};

}  // namespace steplint::gui
