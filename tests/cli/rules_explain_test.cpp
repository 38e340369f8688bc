// `steplint rules` and `steplint explain`, end to end, plus the embedded doc pages.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "rule_docs.h"
#include "run_steplint.h"

namespace steplint::test {
namespace {

using nlohmann::json;

json ruleList() {
  const RunResult r = runSteplint({"rules", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

TEST_CASE("rules: json and text list the same rules", "[cli][rules]") {
  const json rules = ruleList();
  REQUIRE(rules.is_array());
  for (const json& rule : rules) {
    for (const char* key : {"code", "name", "category", "severity", "summary", "doc_url"})
      CHECK(rule[key].is_string());
    CHECK(rule["enabled_by_default"].is_boolean());
    CHECK(rule["options"].is_array());
  }
  const RunResult text = runSteplint({"rules"});
  CHECK(text.exit_code == 0);
  CHECK(text.out.rfind("Code", 0) == 0);
  for (const json& rule : rules)
    CHECK(text.out.find(rule["code"].get<std::string>() + "  ") != std::string::npos);
  const RunResult markdown = runSteplint({"rules", "--format", "markdown"});
  CHECK(markdown.out.rfind("| Code | Name |", 0) == 0);
}

TEST_CASE("rules: tips no trace can check follow the rules, with the reason", "[cli][rules]") {
  const RunResult text = runSteplint({"rules"});
  REQUIRE(text.exit_code == 0);
  const size_t tips =
      text.out.find("\nTips with no rule (no trace can check them; steplint explain TOPIC):\n");
  REQUIRE(tips != std::string::npos);
  CHECK(text.out.find("SL606  ") < tips);
  CHECK(text.out.find("  input-normalization  normalize inputs to zero mean and unit variance\n",
                      tips) != std::string::npos);
  CHECK(text.out.find(
            "no rule: it changes how many steps training needs, not how long a step takes", tips) !=
        std::string::npos);
  const RunResult markdown = runSteplint({"rules", "--format", "markdown"});
  CHECK(markdown.out.find("| `batch-normalization` | add normalization layers") !=
        std::string::npos);
  // JSON stays the array of rules that tools read.
  for (const json& rule : ruleList()) CHECK(rule["name"] != "input-normalization");
}

TEST_CASE("explain: a tip with no rule prints why", "[cli][explain]") {
  const RunResult r = runSteplint({"explain", "gradient-clipping"});
  CHECK(r.exit_code == 0);
  CHECK(
      r.out ==
      "# gradient-clipping (a tip, not a rule)\n\nTip: clip gradients (clip_grad_norm_) to keep training stable."
      "\n\nWhy steplint has no rule for it: whether to clip is a convergence decision no trace can judge; how the "
      "clipping runs is a speed cost a trace shows: SL606 per-parameter-grad-clipping.\n");
}

TEST_CASE("explain: every rule by code and by name", "[cli][explain]") {
  for (const json& rule : ruleList()) {
    const std::string code = rule["code"], name = rule["name"];
    const RunResult by_code = runSteplint({"explain", code});
    CHECK(by_code.exit_code == 0);
    CHECK(by_code.out.rfind("# " + code + " " + name + "\n", 0) == 0);
    CHECK(runSteplint({"explain", name}).out == by_code.out);
  }
}

TEST_CASE("explain: unknown rule is exit 2 with a suggestion when close", "[cli][explain]") {
  const RunResult r = runSteplint({"explain", "SL9999x"});
  CHECK(r.exit_code == 2);
  REQUIRE(r.errLines().size() == 1);
  CHECK(r.errLines()[0].rfind("steplint: error: unknown rule 'SL9999x'", 0) == 0);
  const json rules = ruleList();
  if (rules.empty()) return;
  std::string typo = rules[0]["name"];
  std::swap(typo[1], typo[2]);
  CHECK(runSteplint({"explain", typo})
            .err.find("did you mean '" + rules[0]["name"].get<std::string>() + "'") !=
        std::string::npos);
}

TEST_CASE("rule docs: embedded pages are named SLnnn-name.md", "[cli][explain]") {
  static const std::regex kName("SL[0-9]{3}-[a-z0-9]+(-[a-z0-9]+)*\\.md");
  for (const cli::RuleDoc& doc : cli::embeddedRuleDocs()) {
    CHECK(std::regex_match(std::string(doc.file_name), kName));
    CHECK_FALSE(doc.text.empty());
    CHECK(cli::findRuleDoc(doc.file_name.substr(0, 5)) == &doc);
  }
  CHECK(cli::findRuleDoc("SL000000") == nullptr);
}

TEST_CASE("rule docs: docSection", "[cli][explain]") {
  const std::string page =
      "# SL101 x\n\n## What it does\n\nFlags waits.\nTwo lines.\n\nMore.\n\n## Why is this "
      "bad?\nBad.\n";
  CHECK(cli::docSection(page, "What it does") == "Flags waits.\nTwo lines.\n\nMore.");
  CHECK(cli::docSection(page, "Why is this bad?") == "Bad.");
  CHECK(cli::docSection(page, "Options").empty());
  CHECK(cli::docSection("## What it does now\nno\n## What it does\nyes\n", "What it does") ==
        "yes");
}

}  // namespace
}  // namespace steplint::test
