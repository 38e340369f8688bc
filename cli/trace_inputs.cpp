#include "trace_inputs.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "steplint/analyzer/rank_summary.h"
#include "steplint/trace/peek.h"

namespace steplint::cli {
namespace {

namespace fs = std::filesystem;

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool hasGlobCharacters(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

// A folder's entry named like a trace that is no regular file: said, not silently left out
// (a rank's trace behind a dangling link is a missing rank the user expects to see).
std::string whyNotATraceFile(const fs::directory_entry& entry) {
  std::error_code ec;
  if (entry.is_symlink(ec) && !fs::exists(entry.status(ec)))
    return "a symbolic link to nothing (or a loop of links)";
  if (entry.is_fifo(ec)) return "a FIFO, not a file";
  if (entry.is_socket(ec)) return "a socket, not a file";
  if (entry.is_character_file(ec) || entry.is_block_file(ec)) return "a device, not a file";
  return "";  // a directory named *.json: not meant as a trace
}

std::vector<std::string> folderTraces(const std::string& dir, std::string& problem,
                                      std::vector<std::string>& skipped) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!looksLikeTraceName(it->path().filename().string())) continue;
    if (it->is_regular_file(type_ec))
      out.push_back(it->path().string());
    else if (const std::string why = whyNotATraceFile(*it); !why.empty())
      skipped.push_back(it->path().string() + ": skipped: " + why);
  }
  if (ec)
    problem = dir + ": cannot list the folder (" + ec.message() + ")";
  else if (out.empty())
    problem = dir + ": no trace files in it (*.json, *.json.gz)";
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> globTraces(const std::string& pattern, std::string& problem) {
  std::vector<std::string> out;
  glob_t matches{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &matches);
  if (rc == 0)
    for (size_t i = 0; i < matches.gl_pathc; ++i)
      out.emplace_back(matches.gl_pathv[i]);  // glob sorts
  ::globfree(&matches);
  if (rc == GLOB_NOMATCH)
    problem = pattern + ": matches no file";
  else if (rc != 0)
    problem = pattern + ": cannot expand the pattern";
  return out;
}

}  // namespace

bool looksLikeTraceName(const std::string& file_name) {
  return endsWith(file_name, ".json") || endsWith(file_name, ".json.gz");
}

TraceInputs expandTraceInputs(const std::vector<std::string>& arguments) {
  TraceInputs inputs;
  // Repeated paths are kept: the job report warns about a rank given twice.
  auto add = [&](const std::string& path) { inputs.files.push_back(path); };
  auto add_found = [&](const std::string& path) {
    add(path);
    inputs.expanded.insert(path);
  };
  for (const std::string& arg : arguments) {
    std::error_code ec;
    std::string problem;
    if (fs::is_directory(arg, ec)) {
      inputs.from_folder_or_glob = true;
      for (const std::string& f : folderTraces(arg, problem, inputs.skipped)) add_found(f);
    } else if (!fs::exists(arg, ec) && hasGlobCharacters(arg)) {
      inputs.from_folder_or_glob = true;
      for (const std::string& f : globTraces(arg, problem)) add_found(f);
    } else {
      add(arg);
    }
    if (!problem.empty()) inputs.problems.push_back(problem);
  }
  return inputs;
}

namespace {

// A folder's JSON file that the job reader would skip as another document (not a trace, not a
// rank summary): a report an earlier `check DIR --format json -o DIR/report.json` wrote, which
// the same command may replace.
bool skippedDocument(const std::string& path) {
  const trace::FilePeek peek = trace::peekFile(path);
  if (!peek.mayBeOtherJson()) return false;
  analyzer::RankSummary summary;
  std::string problem;
  return !analyzer::readRankSummaryFile(path, peek, summary, problem) && problem.empty();
}

}  // namespace

std::vector<std::string> withExpandedInputs(const std::vector<std::string>& arguments,
                                            const std::string& output) {
  std::vector<std::string> out = arguments;
  const TraceInputs expanded = expandTraceInputs(arguments);
  for (const std::string& file : expanded.files) {
    // Only the file the output would replace is read: a folder of a thousand ranks is listed,
    // not peeked.
    std::error_code ec;
    const bool is_output =
        expanded.expanded.count(file) > 0 && std::filesystem::equivalent(file, output, ec) && !ec;
    if (!is_output || !skippedDocument(file)) out.push_back(file);
  }
  return out;
}

}  // namespace steplint::cli
