// Rule selection (docs/reference/style.md §2.6): defaults -> select -> extend-select -> ignore.
#include "steplint/analyzer/lint_config.h"

#include <algorithm>
#include <cctype>

#include "lint_config_internal.h"
#include "steplint/analyzer/suggest.h"

namespace steplint::analyzer {
namespace detail {
namespace {

// "SL0" to "SL9": a category, known even while it has no rule (SL9xx, the previews).
bool isCategoryPrefix(std::string_view selector) {
  return selector.size() == 3 && selector.substr(0, 2) == "SL" &&
         std::isdigit(static_cast<unsigned char>(selector[2])) != 0;
}

}  // namespace

// A longer code prefix is known when some rule has it: "SL80" or "SL99" with no such rule is a
// typo that would select nothing (or, in ignore, hide a mistake), an error like an unknown code.
bool isKnownSelector(std::string_view selector, const RuleRegistry& registry) {
  const auto& apart = registry.apartRuleInfos();
  return selector == "ALL" || isCategoryPrefix(selector) || !registry.match(selector).empty() ||
         std::any_of(apart.begin(), apart.end(),
                     [&](const RuleInfo& info) { return selectorMatches(selector, info); });
}

void validateSelectorList(const std::vector<std::string>& selectors, const std::string& key,
                          const std::string& file, const RuleRegistry& registry,
                          std::vector<ConfigError>& errors) {
  // A pasted file or a runaway script can pass thousands of selectors: name the first few
  // (each with a suggestion), then count the rest, so the error stays readable and cheap.
  constexpr size_t kMaxReported = 5;
  const std::vector<std::string> candidates = ruleCodesAndNames(registry);
  size_t unknown = 0;
  for (const std::string& selector : selectors) {
    if (isKnownSelector(selector, registry)) continue;
    if (++unknown > kMaxReported) continue;
    errors.push_back({file, key,
                      "unknown rule selector '" + abbreviate(selector) + "'" +
                          didYouMean(selector, candidates)});
  }
  if (unknown > kMaxReported)
    errors.push_back(
        {file, key,
         "and " + std::to_string(unknown - kMaxReported) + " more unknown rule selectors"});
}

}  // namespace detail

bool LintConfig::selects(const RuleInfo& info) const {
  const auto any = [&](const std::vector<std::string>& selectors) {
    return std::any_of(selectors.begin(), selectors.end(), [&](const std::string& selector) {
      return selectorMatches(selector, info);
    });
  };
  // ignore is applied last, so it wins over select within one configuration (documented in
  // docs/configuration.md); the CLI's --select starts a new selection instead.
  if (any(ignore)) return false;
  return (select.empty() && info.enabled_by_default) || any(select) || any(extend_select);
}

std::vector<const RuleDefinition*> LintConfig::selectedRules(const RuleRegistry& registry) const {
  std::vector<const RuleDefinition*> out;
  for (const auto& rule : registry.rules())
    if (selects(rule->info())) out.push_back(rule.get());
  return out;
}

std::vector<ConfigError> validateSelectors(const LintConfig& config, const RuleRegistry& registry) {
  std::vector<ConfigError> errors;
  detail::validateSelectorList(config.select, "lint.select", config.source_file, registry, errors);
  detail::validateSelectorList(config.extend_select, "lint.extend-select", config.source_file,
                               registry, errors);
  detail::validateSelectorList(config.ignore, "lint.ignore", config.source_file, registry, errors);
  return errors;
}

}  // namespace steplint::analyzer
