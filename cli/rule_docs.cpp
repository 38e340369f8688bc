#include "rule_docs.h"

namespace steplint::cli {

std::map<std::string, std::string> ruleDescriptions(const analyzer::RuleRegistry& registry) {
  std::map<std::string, std::string> out;
  auto describe = [&](std::string_view code) {
    const RuleDoc* doc = findRuleDoc(code);
    if (doc == nullptr) return;
    std::string section = docSection(doc->text, "What it does");
    section = section.substr(0, section.find("\n\n"));  // first paragraph only
    for (char& c : section)
      if (c == '\n') c = ' ';  // one line: SARIF viewers show it as plain text
    if (!section.empty()) out[std::string(code)] = section;
  };
  for (const auto& rule : registry.rules()) describe(rule->info().code);
  for (const analyzer::RuleInfo& info : registry.apartRuleInfos()) describe(info.code);
  return out;
}

}  // namespace steplint::cli
