#include "explain_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "exit_codes.h"
#include "messages.h"
#include "rule_docs.h"
#include "steplint/analyzer/suggest.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/unchecked_tips.h"

namespace steplint::cli {
namespace {

/// "SL101" and "dataloader-wait" from "SL101-dataloader-wait.md".
std::pair<std::string, std::string> splitDocName(std::string_view file_name) {
  const size_t dash = file_name.find('-');
  const size_t dot = file_name.rfind(".md");
  if (dash == std::string_view::npos || dot == std::string_view::npos || dot < dash) return {};
  return {std::string(file_name.substr(0, dash)),
          std::string(file_name.substr(dash + 1, dot - dash - 1))};
}

std::string optionDefault(const analyzer::OptionValue& value) {
  std::ostringstream out;
  std::visit(
      [&](const auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, bool>)
          out << (v ? "true" : "false");
        else if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::string>)
          out << '"' << v << '"';
        else
          out << v;
      },
      value);
  return out.str();
}

/// For a registered rule whose page is missing: what the registry knows.
std::string metadataPage(const analyzer::RuleDefinition& rule) {
  const analyzer::RuleInfo& info = rule.info();
  std::ostringstream out;
  out << "# " << info.code << ' ' << info.name
      << "\n\nCategory: " << analyzer::categoryName(info.category)
      << " · Default: " << (info.enabled_by_default ? "on" : "off")
      << " · Severity: " << analyzer::severityName(info.default_severity) << "\n\n"
      << info.summary << "\n\n## Options\n\n";
  if (rule.options().empty()) out << "None.\n";
  for (const analyzer::OptionSpec& spec : rule.options())
    out << "- `" << spec.name << "` (default " << optionDefault(spec.default_value)
        << "): " << spec.description << '\n';
  return out.str();
}

}  // namespace

std::string explainText(const analyzer::RuleRegistry& registry, const std::string& rule) {
  if (const analyzer::RuleDefinition* found = registry.find(rule)) {
    if (const RuleDoc* doc = findRuleDoc(found->info().code)) return std::string(doc->text);
    return metadataPage(*found);
  }
  for (const analyzer::RuleInfo& info : registry.apartRuleInfos())
    if (info.code == rule || info.name == rule)
      if (const RuleDoc* doc = findRuleDoc(info.code)) return std::string(doc->text);
  // A page may exist for a rule this build does not register (e.g. a redirect); show it.
  for (const RuleDoc& doc : embeddedRuleDocs()) {
    const auto [code, name] = splitDocName(doc.file_name);
    if (!code.empty() && (code == rule || name == rule)) return std::string(doc.text);
  }
  if (const rules::UncheckedTip* tip = rules::findUncheckedTip(rule))
    return "# " + std::string(tip->topic) +
           " (a tip, not a rule)\n\nTip: " + std::string(tip->advice) +
           ".\n\nWhy steplint has no rule for it: " + std::string(tip->why) + ".\n";
  return {};
}

void ExplainCommand::addOptions(CLI::App& app) {
  app.add_option("RULE", rule_, "Rule code (SL101) or name (dataloader-wait)")->required();
}

int ExplainCommand::run() {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  const std::string text = explainText(registry, rule_);
  if (text.empty()) {
    std::vector<std::string> candidates = analyzer::ruleCodesAndNames(registry);
    for (const RuleDoc& doc : embeddedRuleDocs()) {
      auto [code, name] = splitDocName(doc.file_name);
      candidates.push_back(code);
      candidates.push_back(name);
    }
    printError("unknown rule '" + rule_ + "'" + analyzer::didYouMean(rule_, candidates) +
               " (see 'steplint rules')");
    return kExitUsageError;
  }
  std::cout << text;
  if (text.back() != '\n') std::cout << '\n';
  std::cout.flush();
  return std::cout ? kExitOk : kExitUsageError;
}

}  // namespace steplint::cli
