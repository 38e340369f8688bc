// `steplint explain SL101|dataloader-wait`: print the rule's doc page (docs/rules/, embedded
// at build time). An unknown rule is exit 2 with a "did you mean" suggestion.
#pragma once

#include <string>

#include "command.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::cli {

class ExplainCommand final : public Command {
 public:
  std::string_view name() const override { return "explain"; }
  std::string_view description() const override {
    return "Print a rule's documentation (by code or name)";
  }
  void addOptions(CLI::App& app) override;
  int run() override;

 private:
  std::string rule_;
};

/// The page `steplint explain` prints for `rule` (code or name): its embedded doc page, or for
/// a registered rule without one a short page built from its metadata. Empty when unknown.
std::string explainText(const analyzer::RuleRegistry& registry, const std::string& rule);

}  // namespace steplint::cli
