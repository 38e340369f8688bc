// --keep-tail-steps and --keep-warmup-steps: which steps the analyses keep. Shared by
// `summary` and `check` (and `record`, through check's report options).
#pragma once

#include <CLI/CLI.hpp>

#include "steplint/analyzer/steps.h"

namespace steplint::cli {

struct StepFlags {
  bool keep_tail = false;
  bool keep_warmup = false;

  void add(CLI::App& app) {
    app.add_flag(
        "--keep-warmup-steps", keep_warmup,
        "Keep leading steps that took over 3x the median step (dropped by default as start-up)");
    app.add_flag(
        "--keep-tail-steps", keep_tail,
        "Keep trailing steps whose GPU work looks incompletely captured (dropped by default, "
        "as the TensorBoard profiler plugin does)");
  }

  analyzer::StepOptions options() const {
    analyzer::StepOptions o;
    o.drop_incomplete_tail = !keep_tail;
    o.drop_warmup_head = !keep_warmup;
    return o;
  }
};

}  // namespace steplint::cli
