// Shared between lint_config.cpp (selection), lint_config_toml.cpp (file parsing) and
// compare_config.cpp (the [compare] and [baseline] sections of the same file).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "steplint/analyzer/lint_config.h"

namespace steplint::analyzer::detail {

/// A config file is read whole, so it is bounded: no real steplint.toml comes near 4 MiB.
inline constexpr size_t kMaxConfigBytes = size_t{4} << 20;

/// True for a pyproject.toml, whose settings live under [tool.steplint].
bool isPyproject(const std::string& path);

/// Reads `path` (bounded, any file kind the input layer accepts) and parses it as TOML into
/// `root`; on failure returns the error to report: the read problem, or the syntax error with
/// its line and column.
std::optional<ConfigError> parseConfigFile(const std::string& path, toml::table& root);

/// True for "ALL", a rule code or name, or a code prefix matching at least one rule. A bare
/// group prefix ("SL", "SL9", "SL10") is accepted even before any rule of that group exists,
/// so a config written for a newer steplint still loads.
bool isKnownSelector(std::string_view selector, const RuleRegistry& registry);

/// Appends one error per unknown selector in `selectors`, keyed `key` ("lint.select"): the
/// first five, then one "and N more unknown rule selectors".
void validateSelectorList(const std::vector<std::string>& selectors, const std::string& key,
                          const std::string& file, const RuleRegistry& registry,
                          std::vector<ConfigError>& errors);

}  // namespace steplint::analyzer::detail
