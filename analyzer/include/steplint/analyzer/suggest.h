// "Did you mean ...?" for unknown rule codes, names, config keys and option names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/rule_registry.h"

namespace steplint::analyzer {

/// Words longer than this get no suggestion: no code, name or key is near that long, and the
/// distance costs (word length x candidate length) per candidate, 8 s for a 1 MB selector.
inline constexpr size_t kMaxSuggestLength = 64;

/// User input quoted in a message: as is up to `max_chars` bytes, else its first `max_chars`
/// bytes (cut at a UTF-8 character boundary) and "... (N bytes)", so a 1 MB value is not
/// echoed back whole.
std::string abbreviate(std::string_view text, size_t max_chars = 60);

/// Optimal-string-alignment distance (Levenshtein plus adjacent transposition, so
/// "dataloader-wiat" is one edit from "dataloader-wait"), ignoring ASCII case.
size_t editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `word` when it is close enough to be a likely typo (at most a
/// third of the word's length, and at least one edit), else "". "" for words longer than
/// kMaxSuggestLength.
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates);

/// Every registered rule's code and name, the candidates for a rule selector.
std::vector<std::string> ruleCodesAndNames(const RuleRegistry& registry);

/// " (did you mean 'X'?)" or "" when nothing is close.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace steplint::analyzer
