#include "steplint/analyzer/suggest.h"

#include <algorithm>
#include <cctype>

namespace steplint::analyzer {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

size_t editDistance(std::string_view a, std::string_view b) {
  // Three rows are enough for the transposition case; names are short, so no early exit.
  std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        row[j] = std::min(row[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(row);
  }
  return prev[b.size()];
}

std::string abbreviate(std::string_view text, size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  size_t cut = max_chars;
  // Back up over UTF-8 continuation bytes so the cut never splits a character.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.size() > kMaxSuggestLength) return {};
  const size_t limit = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    // The distance is at least the length difference: skip candidates that cannot be close.
    const size_t gap = word.size() > candidate.size() ? word.size() - candidate.size()
                                                      : candidate.size() - word.size();
    if (gap >= best_distance) continue;
    const size_t d = editDistance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::vector<std::string> ruleCodesAndNames(const RuleRegistry& registry) {
  std::vector<std::string> out;
  for (const auto& rule : registry.rules()) {
    out.emplace_back(rule->info().code);
    out.emplace_back(rule->info().name);
  }
  for (const RuleInfo& info : registry.apartRuleInfos()) {
    out.emplace_back(info.code);
    out.emplace_back(info.name);
  }
  return out;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string match = closestMatch(word, candidates);
  return match.empty() ? std::string() : " (did you mean '" + match + "'?)";
}

}  // namespace steplint::analyzer
