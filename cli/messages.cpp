#include "messages.h"

#include <cstdio>

#include "steplint/analyzer/display_text.h"
#include "steplint/trace/peek.h"

namespace steplint::cli {
namespace {

// Messages quote paths and traces: one line each, controls escaped (display_text.h), so a
// file name cannot forge a "steplint: note:" line or send escape sequences to the terminal.
void printLine(std::string_view kind, std::string_view message) {
  std::string line = "steplint: ";
  line.append(kind).append(": ").append(analyzer::displayText(message)).push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

/// The importer's message without a leading "PATH: " or "PATH:OFFSET: ".
std::string_view withoutPathPrefix(std::string_view message, std::string_view path) {
  if (path.empty() || message.substr(0, path.size()) != path) return message;
  std::string_view rest = message.substr(path.size());
  if (rest.substr(0, 2) == ": ") return rest.substr(2);
  if (rest.substr(0, 1) == ":") return rest.substr(1);  // "path:123: ..." keeps the offset
  return message;
}

}  // namespace

void printError(std::string_view message) { printLine("error", message); }
void printWarning(std::string_view message) { printLine("warning", message); }
void printNote(std::string_view message) { printLine("note", message); }

std::string describeImportError(const std::string& path, const trace::ImportStatus& status) {
  std::string detail(withoutPathPrefix(status.message, path));
  switch (status.error) {
    case trace::ImportError::kNotATrace:
      if (detail.rfind("not a trace", 0) == 0) return path + ": " + detail;
      return path + ": not a trace (" + (detail.empty() ? "unrecognised content" : detail) + ")";
    case trace::ImportError::kIo:
      // The input layer words these whole: "no such file", "is a directory, not a trace
      // file", "cannot read (Permission denied)", "corrupt gzip data (...)".
      return path + ": " + (detail.empty() ? "cannot read (I/O error)" : detail);
    case trace::ImportError::kCancelled:
      return path + ": import cancelled";
    case trace::ImportError::kNone:
      break;
  }
  return path + ": " + detail;
}

std::vector<std::string> importWarningLines(const std::string& path,
                                            const trace::ImportStats& stats) {
  std::vector<std::string> lines = trace::importStatLines(stats);
  for (std::string& line : lines) line.insert(0, path + ": ");
  return lines;
}

std::vector<std::string> importWarnings(const std::string& path, const trace::TraceModel& model) {
  std::vector<std::string> lines = importWarningLines(path, model.stats);
  if (model.events.empty())
    lines.push_back(path + ": no complete events imported; the results are empty");
  return lines;
}

bool isOtherJson(const std::string& path, const trace::ImportStatus& status) {
  return status.error == trace::ImportError::kNotATrace && trace::peekFile(path).mayBeOtherJson();
}

std::string skippedOtherJson(const std::string& path, const trace::ImportStatus& status) {
  std::string why = describeImportError(path, status);
  why.insert(path.size() + 2, "skipped: ");
  return why;
}

bool importTraceReporting(const std::string& path, trace::TraceModel& model,
                          std::vector<std::string>* warnings, bool* skipped) {
  const trace::ImportStatus status = trace::importTraceFile(path, model);
  if (!status.ok() && skipped != nullptr && isOtherJson(path, status)) {
    *skipped = true;
    const std::string line = skippedOtherJson(path, status);
    printWarning(line);
    if (warnings != nullptr) warnings->push_back(line);
    return false;
  }
  if (!status.ok()) {
    printError(describeImportError(path, status));
    return false;
  }
  for (const std::string& line : importWarnings(path, model)) {
    printWarning(line);
    if (warnings != nullptr) warnings->push_back(line);
  }
  return true;
}

}  // namespace steplint::cli
