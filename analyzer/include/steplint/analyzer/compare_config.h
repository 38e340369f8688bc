// The `[compare]` and `[baseline]` sections of steplint.toml (or pyproject.toml's
// [tool.steplint.compare] / [tool.steplint.baseline]): the regression gate's limits, used when
// `steplint check` is given --compare BASE, and how --baseline scopes and re-reports findings.
//
//   [compare]
//   max-regression = ["5%", "kernel=10%"]   # or one string; same syntax as --max-regression
//   significance = 0.05                      # one-sided level of the Mann-Whitney test
//   min-steps = 5                            # fewer steps in either run: "cannot decide"
//
//   [baseline]
//   scope = "file"                           # "file" | "rank" | "none" (baseline.h)
//   worse-factor = 2.0                       # an accepted finding this much bigger is reported
//   again
#pragma once

#include <string>
#include <vector>

#include "steplint/analyzer/baseline.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/regression.h"

namespace steplint::analyzer {

struct BaselineOptions {
  BaselineScope scope = BaselineScope::kFile;
  double worse_factor = 2.0;  // > 1
};

/// Reads `[compare]` into `gate` (limits are appended) and `[baseline]` into `baseline`.
/// Returns errors keyed by the dotted key ("compare.max-regression"); a file without the
/// sections changes nothing.
std::vector<ConfigError> loadCompareConfig(const std::string& path, GateOptions& gate,
                                           BaselineOptions& baseline);

}  // namespace steplint::analyzer
