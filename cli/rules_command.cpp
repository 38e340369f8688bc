#include "rules_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "exit_codes.h"
#include "steplint/analyzer/emitters.h"
#include "steplint/analyzer/json_text.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/unchecked_tips.h"

namespace steplint::cli {
namespace {

using analyzer::RuleInfo;

std::vector<std::string> row(const RuleInfo& info) {
  return {std::string(info.code),
          std::string(info.name),
          std::string(analyzer::categoryName(info.category)),
          info.enabled_by_default ? "on" : "off",
          std::string(analyzer::severityName(info.default_severity)),
          std::string(info.summary)};
}

void printText(const analyzer::RuleRegistry& registry) {
  std::vector<std::vector<std::string>> rows = {
      {"Code", "Name", "Category", "Default", "Severity", "Summary"}};
  for (const auto& rule : registry.rules()) rows.push_back(row(rule->info()));
  for (const RuleInfo& info : registry.apartRuleInfos()) rows.push_back(row(info));
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - r[i].size() + 2, ' ');
    }
    std::cout << line << '\n';
  }
  if (registry.rules().empty()) std::cout << "(no rules registered)\n";
  // Tips without a rule follow, so that the catalog says why they are not checked.
  size_t topic_width = 0;
  for (const rules::UncheckedTip& tip : rules::uncheckedTips())
    topic_width = std::max(topic_width, tip.topic.size());
  if (!rules::uncheckedTips().empty())
    std::cout << "\nTips with no rule (no trace can check them; steplint explain TOPIC):\n";
  for (const rules::UncheckedTip& tip : rules::uncheckedTips()) {
    const std::string indent(topic_width + 4, ' ');
    std::cout << "  " << tip.topic << std::string(topic_width - tip.topic.size() + 2, ' ')
              << tip.advice << '\n'
              << indent << "no rule: " << tip.why << '\n';
  }
}

void printJson(const analyzer::RuleRegistry& registry) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& rule : registry.rules()) {
    const RuleInfo& info = rule->info();
    nlohmann::json options = nlohmann::json::array();
    for (const analyzer::OptionSpec& spec : rule->options()) {
      nlohmann::json value;
      std::visit([&](const auto& v) { value = v; }, spec.default_value);
      options.push_back(
          {{"name", spec.name}, {"default", value}, {"description", spec.description}});
    }
    rules.push_back({{"code", info.code},
                     {"name", info.name},
                     {"category", analyzer::categoryName(info.category)},
                     {"enabled_by_default", info.enabled_by_default},
                     {"severity", analyzer::severityName(info.default_severity)},
                     {"summary", info.summary},
                     {"options", options},
                     {"doc_url", analyzer::ruleDocUrl(info.code, info.name)}});
  }
  // Job rules read a job's cross-rank analysis (steplint check DIR), the gate two runs
  // (check --compare), not one trace.
  for (const RuleInfo& info : registry.apartRuleInfos()) {
    rules.push_back({{"code", info.code},
                     {"name", info.name},
                     {"category", analyzer::categoryName(info.category)},
                     {"enabled_by_default", info.enabled_by_default},
                     {"severity", analyzer::severityName(info.default_severity)},
                     {"summary", info.summary},
                     {"options", nlohmann::json::array()},
                     {"doc_url", analyzer::ruleDocUrl(info.code, info.name)},
                     {"scope", info.category == analyzer::Category::kJob ? "job" : "compare"}});
  }
  std::cout << analyzer::jsonText(rules) << '\n';
}

std::string tableCell(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

/// The table of docs/rules/README.md: links are relative, so they work on GitHub and locally.
void printMarkdown(const analyzer::RuleRegistry& registry) {
  std::cout
      << "| Code | Name | Category | Default | Severity | Summary |\n|---|---|---|---|---|---|\n";
  std::vector<const RuleInfo*> infos;
  for (const auto& rule : registry.rules()) infos.push_back(&rule->info());
  for (const RuleInfo& info : registry.apartRuleInfos()) infos.push_back(&info);
  for (const RuleInfo* listed : infos) {
    const RuleInfo& info = *listed;
    std::cout << "| [" << info.code << "](" << info.code << "-" << info.name << ".md) | `"
              << info.name << "` | " << analyzer::categoryName(info.category) << " | "
              << (info.enabled_by_default ? "on" : "off") << " | "
              << analyzer::severityName(info.default_severity) << " | " << tableCell(info.summary)
              << " |\n";
  }
  if (rules::uncheckedTips().empty()) return;
  std::cout
      << "\nTips with no rule: no trace can check them (`steplint explain TOPIC` prints one).\n\n"
      << "| Topic | Tip | Why no rule |\n|---|---|---|\n";
  for (const rules::UncheckedTip& tip : rules::uncheckedTips())
    std::cout << "| `" << tip.topic << "` | " << tableCell(tip.advice) << " | "
              << tableCell(tip.why) << " |\n";
}

}  // namespace

void RulesCommand::addOptions(CLI::App& app) {
  app.add_option("--format", format_,
                 "text table, JSON array, or the Markdown index of docs/rules/README.md")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
}

int RulesCommand::run() {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  if (format_ == "json")
    printJson(registry);
  else if (format_ == "markdown")
    printMarkdown(registry);
  else
    printText(registry);
  std::cout.flush();
  return std::cout ? kExitOk : kExitUsageError;
}

}  // namespace steplint::cli
