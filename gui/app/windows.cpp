#include "windows.h"

#include "compare_window.h"
#include "job_compare_window.h"
#include "job_window.h"
#include "main_window.h"

namespace steplint::gui {
namespace {

template <class Window>
Window* newWindow() {
  auto* window = new Window;
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setErrorDialogsEnabled(true);
  return window;
}

}  // namespace

MainWindow* openTraceWindow(const QString& path, bool persistent) {
  auto* window = newWindow<MainWindow>();
  window->setPersistent(persistent);  // before show: restores the geometry
  window->show();
  if (!path.isEmpty()) window->openFile(path);
  return window;
}

JobWindow* openJobWindow(const QStringList& paths) {
  auto* window = newWindow<JobWindow>();
  QObject::connect(window, &JobWindow::traceRequested,
                   [](const QString& path) { openTraceWindow(path); });
  window->show();
  window->openJob(paths);
  return window;
}

CompareWindow* openCompareWindow(const QString& base, const QString& next) {
  auto* window = newWindow<CompareWindow>();
  window->show();
  window->openComparison(base, next);
  return window;
}

JobCompareWindow* openJobCompareWindow(const QStringList& base, const QStringList& next) {
  auto* window = newWindow<JobCompareWindow>();
  QObject::connect(window, &JobCompareWindow::rankComparisonRequested,
                   [](const QString& b, const QString& n) { openCompareWindow(b, n); });
  window->show();
  window->openComparison(base, next);
  return window;
}

}  // namespace steplint::gui
