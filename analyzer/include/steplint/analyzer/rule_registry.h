// The one registry of rules. Filled explicitly by rules::registerBuiltinRules (no static
// self-registration); looked up by code ("SL101"), name ("dataloader-wait") or prefix ("SL1").
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "steplint/analyzer/rule.h"

namespace steplint::analyzer {

class RuleRegistry {
 public:
  template <typename R, typename... Args>
  void add(Args&&... args) {
    rules_.push_back(std::make_unique<R>(std::forward<Args>(args)...));
  }
  const std::vector<std::unique_ptr<Rule>>& rules() const { return rules_; }
  /// By exact code or name; nullptr if none.
  Rule* find(std::string_view code_or_name) const;
  /// Rules matched by a selector: "ALL", a code, a name, or a code prefix ("SL1", "SL10").
  std::vector<Rule*> match(std::string_view selector) const;

 private:
  std::vector<std::unique_ptr<Rule>> rules_;
};

}  // namespace steplint::analyzer
