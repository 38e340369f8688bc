// The `[compare]` section of steplint.toml (or pyproject.toml's [tool.steplint.compare]): the
// regression gate's limits, used when `steplint check` is given --compare BASE.
//
//   [compare]
//   max-regression = ["5%", "kernel=10%"]   # or one string; same syntax as --max-regression
//   significance = 0.05                      # one-sided level of the Mann-Whitney test
//   min-steps = 5                            # fewer steps in either run: "cannot decide"
#pragma once

#include <string>
#include <vector>

#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/regression.h"

namespace steplint::analyzer {

/// Reads `[compare]` of `path` into `options` (limits are appended). Returns errors keyed by
/// the dotted key ("compare.max-regression"); a file without the section changes nothing.
std::vector<ConfigError> loadCompareConfig(const std::string& path, GateOptions& options);

}  // namespace steplint::analyzer
