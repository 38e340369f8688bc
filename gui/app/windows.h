// steplint-gui's top-level windows, opened on their own and deleted when closed: a trace
// window (MainWindow) and a job's ranks view (JobWindow). Each is wired to open the other where
// the user asks (a rank's trace from the ranks view, a job folder from the File menu).
#pragma once

#include <QString>
#include <QStringList>

namespace steplint::gui {

class JobWindow;
class MainWindow;

/// A trace window for `path` ("" for an empty one). `persistent`: reads and writes the
/// settings (the first window of the app only).
MainWindow* openTraceWindow(const QString& path, bool persistent = false);
/// The ranks view for a folder, a glob or several traces of one job.
JobWindow* openJobWindow(const QStringList& paths);

}  // namespace steplint::gui
