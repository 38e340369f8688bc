// steplint.toml and pyproject.toml that load cleanly, and finding them (lint_config.h).
#include <catch2/catch.hpp>

#include "fake_rules.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/lint_config.h"
#include "temp_dir.h"

namespace steplint::test {
namespace {

using analyzer::LintConfig;
using analyzer::RuleRegistry;
using analyzer::Severity;

TEST_CASE("config: steplint.toml with every key", "[engine][config]") {
  RuleRegistry registry;
  addFakeRules(registry);
  TempDir dir;
  const std::string path = dir.write("steplint.toml", R"(
[lint]
select = ["SL1", "SL2"]
extend-select = ["SL901"]
ignore = ["single-process-dataloader"]
fail-on = "error"

[lint.options.SL101]
min-wait-fraction = 1      # an integer where a number is expected is fine
max-findings = 7
report-idle = true
mode = "max"
)");
  LintConfig config;
  const auto errors = analyzer::loadLintConfig(path, registry, config);
  REQUIRE(errors.empty());
  CHECK(config.source_file == path);
  CHECK(config.select == std::vector<std::string>{"SL1", "SL2"});
  CHECK(config.extend_select == std::vector<std::string>{"SL901"});
  CHECK(config.ignore == std::vector<std::string>{"single-process-dataloader"});
  CHECK(config.fail_on == Severity::kError);
  const analyzer::RuleOptions& options = config.options.at("SL101");
  CHECK(std::get<double>(*options.get("min-wait-fraction")) == 1.0);
  CHECK(std::get<int64_t>(*options.get("max-findings")) == 7);
  CHECK(std::get<bool>(*options.get("report-idle")));
  CHECK(std::get<std::string>(*options.get("mode")) == "max");
  CHECK(codesOf(config.selectedRules(registry)) ==
        std::vector<std::string>{"SL101", "SL201", "SL901"});
}

TEST_CASE("config: options may name the rule by name, stored by code", "[engine][config]") {
  RuleRegistry registry;
  addFakeRules(registry);
  TempDir dir;
  const std::string path =
      dir.write("steplint.toml", "[lint.options.dataloader-wait]\nmax-findings = 2\n");
  LintConfig config;
  REQUIRE(analyzer::loadLintConfig(path, registry, config).empty());
  CHECK(config.options.at("SL101").integer("max-findings", 0) == 2);
}

TEST_CASE("config: an empty file keeps the defaults", "[engine][config]") {
  RuleRegistry registry;
  addFakeRules(registry);
  TempDir dir;
  LintConfig config;
  REQUIRE(analyzer::loadLintConfig(dir.write("steplint.toml", ""), registry, config).empty());
  CHECK(config.fail_on == Severity::kWarning);
  CHECK(codesOf(config.selectedRules(registry)) ==
        std::vector<std::string>{"SL001", "SL101", "SL102", "SL201"});
}

TEST_CASE("config: pyproject.toml [tool.steplint.lint]", "[engine][config]") {
  RuleRegistry registry;
  addFakeRules(registry);
  TempDir dir;
  const std::string path = dir.write("pyproject.toml", R"(
[project]
name = "trainer"

[tool.black]
line-length = 100

[tool.steplint.lint]
select = ["SL2"]
fail-on = "note"

[tool.steplint.lint.options.SL101]
mode = "max"
)");
  LintConfig config;
  REQUIRE(analyzer::loadLintConfig(path, registry, config).empty());
  CHECK(config.select == std::vector<std::string>{"SL2"});
  CHECK(config.fail_on == Severity::kNote);
  CHECK(config.options.at("SL101").text("mode", "") == "max");

  SECTION("errors carry the tool.steplint prefix") {
    const std::string bad = dir.write("bad/pyproject.toml", "[tool.steplint.lint]\nfail-on = 1\n");
    LintConfig other;
    const auto errors = analyzer::loadLintConfig(bad, registry, other);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].key == "tool.steplint.lint.fail-on");
    CHECK(errors[0].message == "expected a string, got an integer");
  }
  SECTION("a pyproject without [tool.steplint] is no configuration at all") {
    LintConfig other;
    CHECK(analyzer::loadLintConfig(dir.write("p/pyproject.toml", "[tool.ruff]\nx = 1\n"), registry,
                                   other)
              .empty());
    CHECK(other.select.empty());
  }
}

TEST_CASE("config: options reach the rule through runLint", "[engine][config]") {
  RuleRegistry registry;
  const auto runs = addFakeRules(registry);
  TempDir dir;
  LintConfig config;
  REQUIRE(
      analyzer::loadLintConfig(
          dir.write("steplint.toml", "[lint.options.SL101]\nmax-findings = 9\n"), registry, config)
          .empty());
  const trace::TraceModel model;
  const analyzer::TraceSummary summary;
  analyzer::runLint(model, summary, registry, config);
  const analyzer::RuleOptions& configured = runs->configured.at("SL101");
  CHECK(configured.integer("max-findings", 0) == 9);
  CHECK(configured.number("min-wait-fraction", -1) == Approx(0.05));  // default filled in
}

TEST_CASE("findLintConfig: closest directory wins, upward search", "[engine][config]") {
  TempDir dir;
  const std::string root_toml = dir.write("steplint.toml", "[lint]\n");
  dir.write("a/b/c/trace.json", "{}");
  CHECK(analyzer::findLintConfig(dir.path("a/b/c")) == root_toml);

  SECTION("a pyproject.toml without [tool.steplint] is skipped") {
    dir.write("a/pyproject.toml", "[tool.black]\nline-length = 1\n");
    CHECK(analyzer::findLintConfig(dir.path("a/b/c")) == root_toml);
  }
  SECTION("a closer pyproject.toml with [tool.steplint] wins") {
    const std::string py =
        dir.write("a/pyproject.toml", "[tool.steplint.lint]\nselect = [\"ALL\"]\n");
    CHECK(analyzer::findLintConfig(dir.path("a/b/c")) == py);
  }
  SECTION("steplint.toml wins over pyproject.toml in the same directory") {
    dir.write("a/pyproject.toml", "[tool.steplint.lint]\n");
    const std::string toml = dir.write("a/steplint.toml", "");
    CHECK(analyzer::findLintConfig(dir.path("a/b")) == toml);
  }
}

}  // namespace
}  // namespace steplint::test
