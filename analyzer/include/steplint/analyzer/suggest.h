// "Did you mean ...?" for unknown rule codes, names, config keys and option names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/rule_registry.h"

namespace steplint::analyzer {

/// Optimal-string-alignment distance (Levenshtein plus adjacent transposition, so
/// "dataloader-wiat" is one edit from "dataloader-wait"), ignoring ASCII case.
size_t editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `word` when it is close enough to be a likely typo (at most a
/// third of the word's length, and at least one edit), else "".
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates);

/// Every registered rule's code and name, the candidates for a rule selector.
std::vector<std::string> ruleCodesAndNames(const RuleRegistry& registry);

/// " (did you mean 'X'?)" or "" when nothing is close.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace steplint::analyzer
