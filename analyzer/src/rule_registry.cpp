#include "steplint/analyzer/rule_registry.h"

namespace steplint::analyzer {

const OptionSpec* RuleDefinition::findOption(std::string_view name) const {
  for (const OptionSpec& spec : options_)
    if (spec.name == name) return &spec;
  return nullptr;
}

RuleOptions RuleDefinition::resolve(const RuleOptions& values) const {
  RuleOptions resolved;
  for (const OptionSpec& spec : options_) {
    const OptionValue* given = values.get(spec.name);
    resolved.set(spec.name, given != nullptr ? *given : spec.default_value);
  }
  return resolved;
}

const RuleDefinition* RuleRegistry::find(std::string_view code_or_name) const {
  for (const auto& r : rules_)
    if (r->info().code == code_or_name || r->info().name == code_or_name) return r.get();
  return nullptr;
}

bool selectorMatches(std::string_view selector, const RuleInfo& info) {
  const bool prefix = selector.size() >= 2 && selector.substr(0, 2) == "SL" &&
                      info.code.substr(0, selector.size()) == selector;
  return selector == "ALL" || info.name == selector || prefix;
}

std::vector<const RuleDefinition*> RuleRegistry::match(std::string_view selector) const {
  std::vector<const RuleDefinition*> out;
  for (const auto& r : rules_)
    if (selectorMatches(selector, r->info())) out.push_back(r.get());
  return out;
}

}  // namespace steplint::analyzer
