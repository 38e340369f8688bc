// The command line's and the open dialogs' paths, as the GUI reads them: one trace file opens
// the trace window; a folder, a glob or several files open a job (the ranks view), as
// `steplint summary DIR` reads them (docs/cli.md "Whole jobs"). Qt's own file API, since the
// GUI does not link the CLI.
#pragma once

#include <QStringList>

namespace steplint::gui {

struct JobInputs {
  QStringList files;  // in argument order; a folder's and a glob's sorted by name
  QStringList
      problems;  // "DIR: no trace files in it (*.json, *.json.gz)", "PATTERN: matches no file"
};

/// True when `paths` name a job rather than one trace: several paths, a folder or a pattern
/// with * ? or [ that is not itself a file.
bool isJobInput(const QStringList& paths);

/// Folders become the traces directly inside them (torch.profiler's tensorboard_trace_handler
/// writes one per rank), patterns the files they match; other paths are kept as given, so a
/// missing file still gets the importer's message.
JobInputs expandJobInputs(const QStringList& paths);

/// The one trace of a single-process run's folder or pattern (tensorboard_trace_handler's log
/// folder of a one-GPU run: one trace that names no rank, or a world of one), as `steplint
/// diff` reads it; otherwise `path` unchanged. So such a folder opens as its trace, and two of
/// them compare as two runs, not two jobs.
QString singleRunTrace(const QString& path);

}  // namespace steplint::gui
