// Every way a config file can be wrong names the full dotted key and says what was expected.
#include <catch2/catch.hpp>

#include "fake_rules.h"
#include "steplint/analyzer/lint_config.h"
#include "temp_dir.h"

namespace steplint::test {
namespace {

/// Loads `text` as steplint.toml with the fake rules and returns its errors.
std::vector<analyzer::ConfigError> errorsFor(const std::string& text) {
  analyzer::RuleRegistry registry;
  addFakeRules(registry);
  TempDir dir;
  analyzer::LintConfig config;
  return analyzer::loadLintConfig(dir.write("steplint.toml", text), registry, config);
}

/// The only error of `text`, as "key: message".
std::string onlyError(const std::string& text) {
  const auto errors = errorsFor(text);
  REQUIRE(errors.size() == 1);
  return errors[0].key + ": " + errors[0].message;
}

TEST_CASE("config errors: wrong types name the key", "[engine][config]") {
  CHECK(onlyError("[lint.options.SL101]\nmin-wait-fraction = \"x\"\n") ==
        "lint.options.SL101.min-wait-fraction: expected a number, got a string");
  CHECK(onlyError("[lint.options.SL101]\nmax-findings = 1.5\n") ==
        "lint.options.SL101.max-findings: expected an integer, got a float");
  CHECK(onlyError("[lint.options.SL101]\nreport-idle = 1\n") ==
        "lint.options.SL101.report-idle: expected a boolean, got an integer");
  CHECK(onlyError("[lint.options.SL101]\nmode = [\"a\"]\n") ==
        "lint.options.SL101.mode: expected a string, got an array");
  CHECK(onlyError("[lint]\nselect = \"SL1\"\n") ==
        "lint.select: expected an array of strings, got a string");
  CHECK(onlyError("[lint]\nignore = [\"SL1\", 3]\n") ==
        "lint.ignore[1]: expected a string, got an integer");
  CHECK(onlyError("[lint]\nfail-on = 2\n") == "lint.fail-on: expected a string, got an integer");
  CHECK(onlyError("lint = 3\n") == "lint: expected a table, got an integer");
  CHECK(onlyError("[lint]\noptions = 3\n") == "lint.options: expected a table, got an integer");
  CHECK(onlyError("[lint.options]\nSL101 = 3\n") ==
        "lint.options.SL101: expected a table, got an integer");
}

TEST_CASE("config errors: bad values", "[engine][config]") {
  CHECK(onlyError("[lint]\nfail-on = \"fatal\"\n") ==
        "lint.fail-on: expected \"note\", \"warning\" or \"error\", got \"fatal\"");
  CHECK(onlyError("[lint]\nselect = [\"SL999\"]\n") ==
        "lint.select: unknown rule selector 'SL999'");
  CHECK(onlyError("[lint]\nextend-select = [\"dataloader-wiat\"]\n") ==
        "lint.extend-select: unknown rule selector 'dataloader-wiat' (did you mean "
        "'dataloader-wait'?)");
  CHECK(onlyError("[lint]\nignore = [\"sl101\"]\n") ==
        "lint.ignore: unknown rule selector 'sl101' (did you mean 'SL101'?)");
}

TEST_CASE("config errors: non-finite and negative numbers (#12)", "[engine][config]") {
  CHECK(onlyError("[lint.options.SL101]\nmin-wait-fraction = nan\n") ==
        "lint.options.SL101.min-wait-fraction: expected a finite number, got nan");
  CHECK(onlyError("[lint.options.SL101]\nmin-wait-fraction = +inf\n") ==
        "lint.options.SL101.min-wait-fraction: expected a finite number, got inf");
  CHECK(onlyError("[lint.options.SL101]\nmin-wait-fraction = -0.5\n") ==
        "lint.options.SL101.min-wait-fraction: must be at least 0, got -0.5");
  CHECK(onlyError("[lint.options.SL101]\nmax-findings = -3\n") ==
        "lint.options.SL101.max-findings: must be at least 0, got -3");
  CHECK(errorsFor("[lint.options.SL101]\nmin-wait-fraction = 0\nmax-findings = 0\n").empty());
}

TEST_CASE("config errors: option ranges come from the declaration (#12)", "[engine][config]") {
  analyzer::OptionSpec spec{"offset", 0.0, "may be negative"};
  spec.min_value = -10;
  spec.max_value = 10;
  CHECK(analyzer::checkOptionValue(spec, -10.0).empty());
  CHECK(analyzer::checkOptionValue(spec, int64_t{11}) == "must be at most 10, got 11");
  CHECK(analyzer::checkOptionValue(spec, -10.5) == "must be at least -10, got -10.5");
  CHECK(analyzer::checkOptionValue(spec, std::string("text")).empty());
  CHECK(analyzer::checkOptionValue(spec, true).empty());
}

TEST_CASE("config errors: unknown keys, rules and options", "[engine][config]") {
  CHECK(onlyError("[lint]\nselct = []\n") ==
        "lint.selct: unknown key (did you mean 'select'?); expected one of: select, extend-select, "
        "ignore, fail-on, options");
  CHECK(onlyError("[format]\nx = 1\n") ==
        "format: unknown key; expected one of: lint, compare, baseline");
  CHECK(onlyError("[lint.options.SL555]\nx = 1\n") == "lint.options.SL555: unknown rule 'SL555'");
  CHECK(onlyError("[lint.options.dataloader-wiat]\nx = 1\n") ==
        "lint.options.dataloader-wiat: unknown rule 'dataloader-wiat' (did you mean "
        "'dataloader-wait'?)");
  CHECK(onlyError("[lint.options.SL101]\nmin-wait-fractoin = 0.1\n") ==
        "lint.options.SL101.min-wait-fractoin: unknown option for SL101 dataloader-wait (did you "
        "mean "
        "'min-wait-fraction'?); options: min-wait-fraction, max-findings, report-idle, mode");
  CHECK(onlyError("[lint.options.SL102]\nx = 1\n") ==
        "lint.options.SL102.x: unknown option: SL102 single-process-dataloader has no options");
  CHECK(onlyError("[lint.options.SL101]\n\"odd key\" = 1\n")
            .rfind("lint.options.SL101.\"odd key\": ", 0) == 0);
}

TEST_CASE("config errors: a job rule has no options, and is a known selector (#14)",
          "[engine][config]") {
  analyzer::RuleRegistry registry;
  addFakeRules(registry);
  registry.addApartRuleInfo({"SL701", "straggler-rank", analyzer::Category::kJob,
                             analyzer::Severity::kWarning, true,
                             "one rank keeps the others waiting"});
  TempDir dir;
  analyzer::LintConfig config;
  const auto errors = analyzer::loadLintConfig(
      dir.write("steplint.toml",
                "[lint]\nignore = [\"SL701\"]\n[lint.options.straggler-rank]\nx = 1\n"),
      registry, config);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].key == "lint.options.straggler-rank");
  CHECK(errors[0].message == "'straggler-rank' is a job rule; job rules have no options");
  CHECK(config.ignore == std::vector<std::string>{"SL701"});
}

TEST_CASE("config errors: every problem is reported, with the file", "[engine][config]") {
  const auto errors =
      errorsFor("[lint]\nfail-on = 1\nselect = [\"nope\"]\n[lint.options.SL101]\nmode = 2\n");
  REQUIRE(errors.size() == 3);
  for (const auto& e : errors) CHECK(e.file.find("steplint.toml") != std::string::npos);
}

TEST_CASE("config errors: TOML syntax error has line and column", "[engine][config]") {
  const auto errors = errorsFor("[lint]\nselect = [\"SL1\"\nfail-on = \"note\"\n");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].key.empty());
  CHECK(errors[0].message.rfind("TOML syntax error at line 3, column ", 0) == 0);
}

TEST_CASE("config errors: missing file", "[engine][config]") {
  analyzer::RuleRegistry registry;
  analyzer::LintConfig config;
  const auto errors = analyzer::loadLintConfig("/nonexistent/steplint.toml", registry, config);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].file == "/nonexistent/steplint.toml");
  CHECK(errors[0].message == "no such file");
}

}  // namespace
}  // namespace steplint::test
