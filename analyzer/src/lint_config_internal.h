// Shared between lint_config.cpp (selection) and lint_config_toml.cpp (file parsing).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/lint_config.h"

namespace steplint::analyzer::detail {

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
