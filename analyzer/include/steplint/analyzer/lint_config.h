// Lint configuration: steplint.toml (`[lint]`) or pyproject.toml (`[tool.steplint.lint]`),
// then command-line flags. Resolution: defaults -> select -> extend-select -> ignore -> CLI.
// A bad value is a ConfigError naming the key (the CLI prints it and exits 2).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "steplint/analyzer/diagnostic.h"
#include "steplint/analyzer/rule.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::analyzer {

struct ConfigError {
  std::string file;     // where it came from ("" for the command line)
  std::string key;      // "lint.options.SL101.min-wait-fraction"
  std::string message;  // "expected a number, got a string"
};

struct LintConfig {
  std::vector<std::string> select;  // empty = rules enabled by default
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  Severity fail_on = Severity::kWarning;
  std::map<std::string, RuleOptions> options;  // by rule code
  std::string source_file;                     // the config file used, if any

  /// The rules this configuration selects, in registry order.
  std::vector<const RuleDefinition*> selectedRules(const RuleRegistry& registry) const;
  /// Whether it selects this rule: a per-trace rule or a job rule alike.
  bool selects(const RuleInfo& info) const;
};

/// Loads `path` (steplint.toml, or pyproject.toml's [tool.steplint]) into `config`,
/// validating selectors and options against `registry`. Returns errors; empty on success.
std::vector<ConfigError> loadLintConfig(const std::string& path, const RuleRegistry& registry,
                                        LintConfig& config);

/// Finds steplint.toml or a pyproject.toml with [tool.steplint], searching upward from `dir`.
std::optional<std::string> findLintConfig(const std::string& dir);

/// Checks selectors (codes, names, prefixes, "ALL") against the registry.
std::vector<ConfigError> validateSelectors(const LintConfig& config, const RuleRegistry& registry);

}  // namespace steplint::analyzer
