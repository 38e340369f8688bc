// `steplint check` configuration: finding and loading steplint.toml / pyproject.toml, then
// applying the command-line flags on top (flags win). Kept apart from the command so it can
// be unit-tested without running the executable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "steplint/analyzer/lint_config.h"

namespace steplint::cli {

struct CliLintOverrides {
  std::optional<std::vector<std::string>> select;  // set when --select was given
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  std::optional<std::string> fail_on;
};

/// Which config file to use: `explicit_path` if given; none with `no_config`; else the first
/// steplint.toml (or pyproject.toml with [tool.steplint]) upward from `trace_dir`, then from
/// `cwd`.
std::optional<std::string> chooseConfigFile(const std::string& explicit_path, bool no_config,
                                            const std::string& trace_dir, const std::string& cwd);

/// Applies flags over `config`. As in ruff, --select starts a new selection: the file's
/// select, extend-select and ignore no longer apply; --extend-select and --ignore add to
/// the file's. Errors are keyed by flag ("--select").
std::vector<analyzer::ConfigError> applyCliOverrides(const CliLintOverrides& flags,
                                                     const analyzer::RuleRegistry& registry,
                                                     analyzer::LintConfig& config);

/// The working directory (config lookup, paths shown relative to it), or "." when unknown.
std::string currentDir();

/// The line printed after "steplint: error: ": "steplint.toml: lint.fail-on: expected ...",
/// with the file shown relative to `cwd` when below it.
std::string describeConfigError(const analyzer::ConfigError& error, const std::string& cwd);

}  // namespace steplint::cli
