// Two opened traces compared (`steplint-gui --compare BASE NEW`): both traces as the trace
// window loads them, and the analyzer's diff of the two (analyzer/run_diff.h), exactly as
// `steplint diff BASE NEW` computes it. Built off the GUI thread by ComparisonLoader.
#pragma once

#include <memory>

#include "steplint/analyzer/run_diff.h"
#include "steplint/gui/loaded_trace.h"

namespace steplint::gui {

struct LoadedComparison {
  std::shared_ptr<const LoadedTrace> base;
  std::shared_ptr<const LoadedTrace> next;  // "new" is a keyword
  analyzer::RunDiff diff;                   // base → next
};

}  // namespace steplint::gui
