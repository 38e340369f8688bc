// The TRACE arguments of `summary` and `check`: files, folders (the traces directly inside,
// as torch.profiler's tensorboard_trace_handler writes one per rank) and quoted globs.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace steplint::cli {

struct TraceInputs {
  std::vector<std::string> files;     // in argument order; a folder's and a glob's sorted by name
  std::vector<std::string> problems;  // "DIR: no trace files in it", "PATTERN: matches nothing"
  std::vector<std::string> skipped;   // a folder's trace-named entries that are no file to read
  bool from_folder_or_glob = false;   // a folder or pattern was given: the user means a job
  std::set<std::string> expanded;     // the files a folder or pattern brought in, not named
};

/// True for the names torch.profiler and steplint give traces: *.json, *.json.gz.
bool looksLikeTraceName(const std::string& file_name);

/// Expands folders and glob patterns (glob(3)); other arguments are kept as given, so a missing
/// file still gets the importer's error.
TraceInputs expandTraceInputs(const std::vector<std::string>& arguments);

/// `arguments` and the files their folders and globs expand to: what `output` must not replace
/// (trace::checkOutputPath cannot see inside a folder). When `output` is a folder's JSON file
/// that is neither a trace nor a rank summary (an earlier report), it is left out: reading the
/// folder skips it, and the command may replace it.
std::vector<std::string> withExpandedInputs(const std::vector<std::string>& arguments,
                                            const std::string& output);

}  // namespace steplint::cli
