// The built-in catalog (docs/reference/style.md §2.2–2.5): codes unique and sorted, names
// kebab-case, each code in its category's hundreds block, and each rule's doc page present with the
// fixed sections and listed in docs/rules/README.md. Iterates whatever is registered.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "steplint/analyzer/rule_registry.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/job_rules.h"
#include "steplint/rules/unchecked_tips.h"

namespace steplint::test {
namespace {

using analyzer::Category;

const std::vector<std::string> kDocSections = {
    "## What it does", "## Why is this bad?", "## Trace evidence",         "## Example",
    "## How to fix",   "## Options",          "## Relation to other tools"};

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

char blockOf(Category c) {
  switch (c) {
    case Category::kTraceHealth:
      return '0';
    case Category::kInputPipeline:
      return '1';
    case Category::kTransfer:
      return '2';
    case Category::kGpuExecution:
      return '3';
    case Category::kMemory:
      return '4';
    case Category::kDistributed:
      return '5';
    case Category::kOptimizer:
      return '6';
    case Category::kJob:
      return '7';
    case Category::kComparison:
      return '8';
    case Category::kPreview:
      return '9';
  }
  return '?';
}

bool isKebab(std::string_view name) {
  static const std::regex kebab("[a-z0-9]+(-[a-z0-9]+)*");
  return std::regex_match(name.begin(), name.end(), kebab);
}

std::string docPath(const analyzer::RuleInfo& info) {
  return std::string(STEPLINT_DOCS_DIR) + "/rules/" + std::string(info.code) + "-" +
         std::string(info.name) + ".md";
}

TEST_CASE("catalog: codes unique and sorted in their category block, names kebab-case",
          "[engine][catalog]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  std::set<std::string_view> names;
  std::string_view previous;
  for (const auto& rule : registry.rules()) {
    const analyzer::RuleInfo& info = rule->info();
    INFO(info.code << " " << info.name);
    CHECK(std::regex_match(std::string(info.code), std::regex("SL[0-9]{3}")));
    CHECK(info.code > previous);  // strictly increasing: unique and sorted
    previous = info.code;
    CHECK(info.code[2] == blockOf(info.category));
    CHECK(isKebab(info.name));
    CHECK(info.name.substr(0, 6) != "avoid-");
    CHECK(info.name.substr(0, 4) != "use-");
    CHECK(names.insert(info.name).second);
    CHECK_FALSE(info.summary.empty());
    if (info.category == Category::kPreview) CHECK_FALSE(info.enabled_by_default);
    std::set<std::string> options;
    for (const analyzer::OptionSpec& spec : rule->options()) {
      CHECK(isKebab(spec.name));
      CHECK(options.insert(spec.name).second);
      CHECK_FALSE(spec.description.empty());
    }
  }
}

TEST_CASE("catalog: every rule has docs/rules/SLnnn-name.md with the fixed sections",
          "[engine][catalog]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  for (const auto& rule : registry.rules()) {
    const analyzer::RuleInfo& info = rule->info();
    const std::string path = docPath(info);
    INFO(path);
    const std::string page = readText(path);
    REQUIRE_FALSE(page.empty());
    const std::string title = "# " + std::string(info.code) + " " + std::string(info.name);
    CHECK(page.substr(0, page.find('\n')) == title);
    size_t at = 0;
    for (const std::string& section : kDocSections) {
      INFO("section " << section);
      const size_t found = page.find("\n" + section + "\n", at);
      CHECK(found != std::string::npos);  // present, and after the previous one
      if (found != std::string::npos) at = found + 1;
    }
  }
}

TEST_CASE("catalog: job rules are SL7xx with their doc pages, after the trace rules",
          "[engine][catalog]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  analyzer::JobRuleRegistry job_rules;
  rules::registerJobRules(job_rules);
  REQUIRE(job_rules.rules().size() == 3);
  const std::string index = readText(std::string(STEPLINT_DOCS_DIR) + "/rules/README.md");
  std::string_view previous = registry.rules().back()->info().code;
  for (const auto& rule : job_rules.rules()) {
    const analyzer::RuleInfo& info = rule->info();
    INFO(info.code << " " << info.name);
    CHECK(info.category == Category::kJob);
    CHECK(info.code[2] == blockOf(info.category));
    CHECK(info.code > previous);
    previous = info.code;
    CHECK(isKebab(info.name));
    CHECK(registry.find(info.name) == nullptr);  // one namespace of names for both kinds
    CHECK(job_rules.find(info.code) == rule.get());
    const std::string page = readText(docPath(info));
    REQUIRE_FALSE(page.empty());
    CHECK(page.substr(0, page.find('\n')) ==
          "# " + std::string(info.code) + " " + std::string(info.name));
    size_t at = 0;
    for (const std::string& section : kDocSections) {
      INFO("section " << section);
      const size_t found = page.find("\n" + section + "\n", at);
      CHECK(found != std::string::npos);
      if (found != std::string::npos) at = found + 1;
    }
    CHECK(index.find("(" + std::string(info.code) + "-" + std::string(info.name) + ".md)") !=
          std::string::npos);
  }
}

TEST_CASE("catalog: docs/rules/README.md lists every rule", "[engine][catalog]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  const std::string index = readText(std::string(STEPLINT_DOCS_DIR) + "/rules/README.md");
  REQUIRE_FALSE(index.empty());
  for (const auto& rule : registry.rules()) {
    const std::string link =
        std::string(rule->info().code) + "-" + std::string(rule->info().name) + ".md";
    INFO("regenerate the table with: steplint rules --format markdown");
    CHECK(index.find("(" + link + ")") != std::string::npos);
    // The whole row, so a summary changed in the code (or cut short) shows up here.
    const analyzer::RuleInfo& info = rule->info();
    const std::string row = "| [" + std::string(info.code) + "](" + link + ") | `" +
                            std::string(info.name) + "` | " +
                            std::string(analyzer::categoryName(info.category)) + " | " +
                            (info.enabled_by_default ? "on" : "off") + " | " +
                            std::string(analyzer::severityName(info.default_severity)) + " | " +
                            std::string(info.summary) + " |\n";
    CHECK(index.find(row) != std::string::npos);
  }
}

TEST_CASE("catalog: tips with no rule have their own topics and cite only registered rules",
          "[engine][catalog]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  std::string_view previous;
  REQUIRE(rules::uncheckedTips().size() == 3);
  for (const rules::UncheckedTip& tip : rules::uncheckedTips()) {
    INFO(tip.topic);
    CHECK(isKebab(tip.topic));
    CHECK(tip.topic > previous);  // sorted, unique
    previous = tip.topic;
    CHECK(registry.find(tip.topic) == nullptr);  // `steplint explain TOPIC` must not be a rule
    CHECK(rules::findUncheckedTip(tip.topic) == &tip);
    CHECK_FALSE(tip.advice.empty());
    const std::string why(tip.why);
    static const std::regex kCode("SL[0-9]{3}");
    for (auto it = std::sregex_iterator(why.begin(), why.end(), kCode);
         it != std::sregex_iterator(); ++it)
      CHECK(registry.find(it->str()) != nullptr);
  }
  CHECK(rules::findUncheckedTip("dataloader-wait") == nullptr);
}

TEST_CASE("catalog: docs/rules/README.md lists the tips with no rule", "[engine][catalog]") {
  const std::string index = readText(std::string(STEPLINT_DOCS_DIR) + "/rules/README.md");
  for (const rules::UncheckedTip& tip : rules::uncheckedTips()) {
    INFO("regenerate the table with: steplint rules --format markdown");
    CHECK(index.find("| `" + std::string(tip.topic) + "` |") != std::string::npos);
  }
}

}  // namespace
}  // namespace steplint::test
