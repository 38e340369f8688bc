// The one registry of rules. Filled explicitly by rules::registerBuiltinRules (no static
// self-registration); looked up by code ("SL101"), name ("dataloader-wait") or prefix ("SL1").
// It holds immutable definitions (rule_definition.h): runs build their own rules from them.
// Job rules (SL7xx, job_rule.h) are built and run apart, over a job rather than a trace; the
// registry holds their RuleInfo too, so selectors, suggestions and the configuration treat
// both kinds alike.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "steplint/analyzer/rule_definition.h"

namespace steplint::analyzer {

class RuleRegistry {
 public:
  void add(RuleDefinition definition) {
    rules_.push_back(std::make_unique<const RuleDefinition>(std::move(definition)));
  }
  /// Rule class R with its option table: registry.add<R>(info, {option(...), ...}).
  template <typename R>
  void add(const RuleInfo& info, std::vector<OptionBinding<typename R::Options>> table = {}) {
    add(defineRule<R>(info, std::move(table)));
  }
  const std::vector<std::unique_ptr<const RuleDefinition>>& rules() const { return rules_; }
  /// By exact code or name; nullptr if none.
  const RuleDefinition* find(std::string_view code_or_name) const;
  /// Rules matched by a selector: "ALL", a code, a name, or a code prefix ("SL1", "SL10").
  std::vector<const RuleDefinition*> match(std::string_view selector) const;

  void addApartRuleInfo(const RuleInfo& info) { apart_rules_.push_back(info); }
  /// The rules that run apart from a trace's rules: the job rules (SL7xx, over a job's ranks)
  /// and the regression gate (SL801, against --compare), in code order
  /// (rules::registerBuiltinRules adds them), so selectors, configs and docs cover them.
  const std::vector<RuleInfo>& apartRuleInfos() const { return apart_rules_; }

 private:
  std::vector<std::unique_ptr<const RuleDefinition>> rules_;
  std::vector<RuleInfo> apart_rules_;
};

/// True when `selector` ("ALL", a code, a name or a code prefix such as "SL1") names the rule.
bool selectorMatches(std::string_view selector, const RuleInfo& info);

}  // namespace steplint::analyzer
