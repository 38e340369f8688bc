// One opened trace with everything the GUI shows about it. Built off the GUI thread by
// TraceLoader, then shared read-only (std::shared_ptr<const LoadedTrace>) by every view.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/op_stats.h"
#include "steplint/analyzer/summary.h"
#include "steplint/trace/model.h"

namespace steplint::gui {

struct LoadedTrace {
  std::string path;                // as opened
  trace::TraceModel model;         // the imported events (read-only once loaded)
  analyzer::TraceSummary summary;  // steps, breakdown, GPU summary, idle, all kernels (top_kernels)
  analyzer::LintResult lint;       // findings and not-checked rules
  std::vector<analyzer::OpStat> op_stats;  // every CPU op name, for the overview table
  std::string config_file;            // the steplint.toml / pyproject.toml used, "" for defaults
  std::vector<std::string> warnings;  // import problems and config errors, one line each
  double load_seconds = 0;            // import + analysis wall time
};

}  // namespace steplint::gui
