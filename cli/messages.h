// The one-line messages `steplint` writes to stderr, in one place so every subcommand words
// them alike: `steplint: error: FILE: not a trace (...)`, `steplint: warning: FILE: ...`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "steplint/trace/import_stats.h"
#include "steplint/trace/importer.h"

namespace steplint::cli {

/// Writes `steplint: error: <message>` and a newline to stderr.
void printError(std::string_view message);
/// Writes `steplint: warning: <message>` and a newline to stderr.
void printWarning(std::string_view message);
/// Writes `steplint: note: <message>` and a newline to stderr.
void printNote(std::string_view message);

/// "FILE: not a trace (<importer detail>)" or "FILE: <io problem>" ("FILE: no such file",
/// "FILE: is a character device, not a trace file"). The importer's message usually names the
/// file already; that prefix is not repeated.
std::string describeImportError(const std::string& path, const trace::ImportStatus& status);

/// One line per non-zero import counter whose severity is error or data-loss, most severe first:
/// "FILE: 3 x json_event_unparseable [error]: Event that is not valid JSON even after repair;
/// dropped".
std::vector<std::string> importWarningLines(const std::string& path,
                                            const trace::ImportStats& stats);

/// Every warning an imported trace gets: importWarningLines, then "no complete events" when
/// nothing was imported.
std::vector<std::string> importWarnings(const std::string& path, const trace::TraceModel& model);

/// Imports one trace for a subcommand: on failure prints the one error line and returns
/// false; import warnings (error and data-loss counters) are printed, and appended to
/// `warnings` when given, but do not fail it. With `skipped` (a file a folder or pattern
/// brought in), a file that is another JSON document is a warning instead (skippedOtherJson),
/// and *skipped says so.
bool importTraceReporting(const std::string& path, trace::TraceModel& model,
                          std::vector<std::string>* warnings = nullptr, bool* skipped = nullptr);

/// The import failed because `path` is a JSON document but no trace (a config or metrics file
/// beside the traces), not because it is broken or unreadable.
bool isOtherJson(const std::string& path, const trace::ImportStatus& status);
/// "FILE: skipped: not a trace (...)".
std::string skippedOtherJson(const std::string& path, const trace::ImportStatus& status);

}  // namespace steplint::cli
