#include "windows.h"

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
  QObject::connect(window, &JobWindow::traceRequested, [](const QString& path) { openTraceWindow(path); });
  window->show();
  window->openJob(paths);
  return window;
}

}  // namespace steplint::gui
