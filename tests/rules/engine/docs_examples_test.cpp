// The TOML examples in docs/configuration.md load without errors against the real catalog,
// so the page cannot drift from the option names and selectors it documents.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "steplint/analyzer/lint_config.h"
#include "steplint/rules/builtin.h"
#include "temp_dir.h"

namespace steplint::test {
namespace {

std::vector<std::string> tomlBlocks(const std::string& markdown) {
  std::vector<std::string> blocks;
  const std::string open = "```toml\n";
  for (size_t at = markdown.find(open); at != std::string::npos; at = markdown.find(open, at)) {
    const size_t begin = at + open.size();
    const size_t end = markdown.find("```", begin);
    if (end == std::string::npos) break;
    blocks.push_back(markdown.substr(begin, end - begin));
    at = end + 3;
  }
  return blocks;
}

TEST_CASE("docs: configuration.md examples load", "[engine][config][docs]") {
  std::ifstream in(std::string(STEPLINT_DOCS_DIR) + "/configuration.md");
  std::ostringstream text;
  text << in.rdbuf();
  const std::vector<std::string> blocks = tomlBlocks(text.str());
  REQUIRE(blocks.size() >= 3);
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  TempDir dir;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const bool pyproject = blocks[i].find("[tool.steplint") != std::string::npos;
    const std::string name = std::to_string(i) + (pyproject ? "/pyproject.toml" : "/steplint.toml");
    analyzer::LintConfig config;
    const auto errors = analyzer::loadLintConfig(dir.write(name, blocks[i]), registry, config);
    std::string problems;
    for (const auto& e : errors) problems += e.key + ": " + e.message + "\n";
    INFO("block " << i << ":\n" << blocks[i]);
    CHECK(problems == "");
  }
}

}  // namespace
}  // namespace steplint::test
