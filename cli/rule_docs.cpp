#include "rule_docs.h"

namespace steplint::cli {

std::map<std::string, std::string> ruleDescriptions(const analyzer::RuleRegistry& registry) {
  std::map<std::string, std::string> out;
  for (const auto& rule : registry.rules()) {
    const RuleDoc* doc = findRuleDoc(rule->info().code);
    if (doc == nullptr) continue;
    std::string section = docSection(doc->text, "What it does");
    section = section.substr(0, section.find("\n\n"));  // first paragraph only
    for (char& c : section)
      if (c == '\n') c = ' ';  // one line: SARIF viewers show it as plain text
    if (!section.empty()) out[std::string(rule->info().code)] = section;
  }
  return out;
}

}  // namespace steplint::cli
