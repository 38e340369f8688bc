// steplint-gui's top-level windows, opened on their own and deleted when closed: a trace
// window (MainWindow), a job's ranks view (JobWindow), a comparison of two traces
// (CompareWindow) and of two jobs (JobCompareWindow). Each
// is wired to open the others where the user asks (a rank's trace from the ranks view, a job
// folder or a comparison from the File menu).
#pragma once

#include <QString>
#include <QStringList>

namespace steplint::gui {

class CompareWindow;
class JobCompareWindow;
class JobWindow;
class MainWindow;

/// A trace window for `path` ("" for an empty one). `persistent`: reads and writes the
/// settings (the first window of the app only).
MainWindow* openTraceWindow(const QString& path, bool persistent = false);
/// The ranks view for a folder, a glob or several traces of one job.
JobWindow* openJobWindow(const QStringList& paths);
/// The comparison of two traces.
CompareWindow* openCompareWindow(const QString& base, const QString& next);
/// The comparison of two runs of a job (folders, globs or trace lists); a rank double-clicked
/// there opens its two traces' comparison.
JobCompareWindow* openJobCompareWindow(const QStringList& base, const QStringList& next);

}  // namespace steplint::gui
