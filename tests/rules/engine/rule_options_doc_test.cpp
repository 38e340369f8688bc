// Each rule's options are declared once, in its .cpp; this checks that the doc page's Options
// table (docs/rules/SLnnn-name.md) lists exactly those, with the same type and default.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "steplint/analyzer/rule_registry.h"
#include "steplint/rules/builtin.h"

namespace steplint::test {
namespace {

struct DocOption {
  std::string type;
  std::string default_text;
};

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The "## Options" section, up to the next "## ".
std::string optionsSection(const std::string& page) {
  const size_t start = page.find("\n## Options\n");
  if (start == std::string::npos) return {};
  const size_t end = page.find("\n## ", start + 1);
  return page.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/// Rows "| `name` | type | default | meaning |" by name.
std::map<std::string, DocOption> docOptions(const std::string& section) {
  static const std::regex row(R"(\n\| `([a-z0-9-]+)` \| ([a-z]+) \| ([^|]+?) \|)");
  std::map<std::string, DocOption> out;
  for (auto it = std::sregex_iterator(section.begin(), section.end(), row);
       it != std::sregex_iterator(); ++it)
    out[(*it)[1].str()] = {(*it)[2].str(), (*it)[3].str()};
  return out;
}

std::string typeName(const analyzer::OptionValue& value) {
  switch (value.index()) {
    case 0:
      return "bool";
    case 1:
      return "int";
    case 2:
      return "float";
    default:
      return "string";
  }
}

/// Whether the page's default text means `value` (numbers compared as numbers: "2.0" == 2).
bool sameDefault(const analyzer::OptionValue& value, const std::string& text) {
  if (const auto* b = std::get_if<bool>(&value)) return text == (*b ? "true" : "false");
  if (const auto* s = std::get_if<std::string>(&value)) return text == "\"" + *s + "\"";
  double number = 0;
  std::istringstream in(text);
  if (!(in >> number) || !in.eof()) return false;
  const double want = std::holds_alternative<double>(value)
                          ? std::get<double>(value)
                          : static_cast<double>(std::get<int64_t>(value));
  return number == want;
}

TEST_CASE("options: every doc page lists exactly the declared options with their defaults",
          "[engine][catalog]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  for (const auto& rule : registry.rules()) {
    const analyzer::RuleInfo& info = rule->info();
    const std::string path = std::string(STEPLINT_DOCS_DIR) + "/rules/" + std::string(info.code) +
                             "-" + std::string(info.name) + ".md";
    INFO(path);
    const std::string section = optionsSection(readText(path));
    REQUIRE_FALSE(section.empty());
    std::map<std::string, DocOption> documented = docOptions(section);
    if (rule->options().empty()) CHECK(section.find("\nNone.\n") != std::string::npos);
    for (const analyzer::OptionSpec& spec : rule->options()) {
      INFO("option " << spec.name);
      const auto it = documented.find(spec.name);
      REQUIRE(it != documented.end());
      CHECK(it->second.type == typeName(spec.default_value));
      INFO("page default " << it->second.default_text);
      CHECK(sameDefault(spec.default_value, it->second.default_text));
      documented.erase(it);
    }
    for (const auto& [name, doc] : documented) {
      INFO("documented but not declared: " << name);
      CHECK(false);
    }
  }
}

TEST_CASE("options: the page parser sees rows, types and defaults", "[engine][catalog]") {
  const std::string page =
      "# SL1 x\n\n## Options\n\n| Name | Type | Default | Meaning |\n|---|---|---|---|\n"
      "| `min-share` | float | 0.05 | a share |\n| `count` | int | 1048576 | n |\n\n## Relation\n"
      "| `not-an-option` | int | 1 | after the section |\n";
  const auto rows = docOptions(optionsSection(page));
  REQUIRE(rows.size() == 2);
  CHECK(rows.at("min-share").type == "float");
  CHECK(sameDefault(0.05, rows.at("min-share").default_text));
  CHECK_FALSE(sameDefault(0.5, rows.at("min-share").default_text));
  CHECK(sameDefault(int64_t{1} << 20, rows.at("count").default_text));
  CHECK(sameDefault(2.0, "2.0"));
  CHECK_FALSE(sameDefault(2.0, "2 µs"));
}

}  // namespace
}  // namespace steplint::test
