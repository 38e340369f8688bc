// Rule selectors from the command line or a config file are user input of any size (issue
// 12): a 1 MB selector took 8 s (edit distance against every rule) and was echoed whole.
// Validation must stay cheap and its messages short. The time bounds are generous hang
// guards, not benchmarks.
#include <chrono>
#include <string>

#include <catch2/catch.hpp>

#include "steplint/analyzer/lint_config.h"
#include "steplint/rules/builtin.h"
#include "temp_dir.h"

namespace steplint::test {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

analyzer::RuleRegistry builtinRegistry() {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  return registry;
}

}  // namespace

TEST_CASE("selector bounds: a 1 MB selector is rejected quickly with a short message",
          "[robustness][selector]") {
  const analyzer::RuleRegistry registry = builtinRegistry();
  analyzer::LintConfig given;
  given.select = {std::string(size_t{1} << 20, 'x')};
  const auto start = Clock::now();
  const auto errors = analyzer::validateSelectors(given, registry);
  CHECK(secondsSince(start) < 2.0);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message ==
        "unknown rule selector '" + std::string(60, 'x') + "... (1048576 bytes)'");
}

TEST_CASE("selector bounds: thousands of unknown selectors name five, then count",
          "[robustness][selector]") {
  const analyzer::RuleRegistry registry = builtinRegistry();
  analyzer::LintConfig given;
  for (int i = 0; i < 100'000; ++i) given.ignore.push_back("no-such-rule-" + std::to_string(i));
  given.ignore.push_back("SL101");  // known ones are not counted
  const auto start = Clock::now();
  const auto errors = analyzer::validateSelectors(given, registry);
  CHECK(secondsSince(start) < 5.0);
  REQUIRE(errors.size() == 6);
  CHECK(errors[0].message.rfind("unknown rule selector 'no-such-rule-0'", 0) == 0);
  CHECK(errors[4].message.rfind("unknown rule selector 'no-such-rule-4'", 0) == 0);
  CHECK(errors[5].key == "lint.ignore");
  CHECK(errors[5].message == "and 99995 more unknown rule selectors");
}

TEST_CASE("selector bounds: a 1 MB selector and key in a config file",
          "[robustness][selector][config]") {
  const analyzer::RuleRegistry registry = builtinRegistry();
  TempDir dir;
  const std::string huge(size_t{1} << 20, 'y');
  const std::string path =
      dir.write("steplint.toml", "[lint]\nextend-select = [\"" + huge + "\"]\n" + huge + " = 1\n");
  analyzer::LintConfig config;
  const auto start = Clock::now();
  const auto errors = analyzer::loadLintConfig(path, registry, config);
  CHECK(secondsSince(start) < 2.0);
  REQUIRE(errors.size() == 2);
  for (const analyzer::ConfigError& e : errors) CHECK(e.key.size() + e.message.size() < 300);
  CHECK(errors[0].key == "lint.extend-select");
  CHECK(errors[0].message ==
        "unknown rule selector '" + std::string(60, 'y') + "... (1048576 bytes)'");
  CHECK(errors[1].key == "lint.\"" + std::string(60, 'y') + "... (1048576 bytes)\"");
}

}  // namespace steplint::test
