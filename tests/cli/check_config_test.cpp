// `steplint check` configuration resolution (cli/check_config.h): file choice, flags over the
// file, and the one-line error wording.
#include "check_config.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "run_steplint.h"
#include "steplint/rules/builtin.h"

namespace steplint::cli {
namespace {

namespace fs = std::filesystem;

analyzer::RuleRegistry builtinRules() {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  return registry;
}

TEST_CASE("check config: --config wins, --no-config disables, else search", "[cli][check]") {
  const fs::path root = test::scratchPath("cfgsearch");
  fs::create_directories(root / "a" / "b");
  std::ofstream(root / "a" / "steplint.toml") << "[lint]\n";
  CHECK(chooseConfigFile("x.toml", false, (root / "a/b").string(), root.string()) == "x.toml");
  CHECK(chooseConfigFile("", true, (root / "a/b").string(), root.string()) == std::nullopt);
  CHECK(chooseConfigFile("", false, (root / "a/b").string(), root.string()) ==
        (root / "a/steplint.toml").string());
  // Nothing above the trace: fall back to the working directory's search.
  std::ofstream(root / "steplint.toml") << "";
  CHECK(chooseConfigFile("", false, "/", root.string()) == (root / "steplint.toml").string());
}

TEST_CASE("check config: --select starts over, --extend-select and --ignore add", "[cli][check]") {
  const analyzer::RuleRegistry registry = builtinRules();
  analyzer::LintConfig config;
  config.select = {"SL1"};
  config.extend_select = {"SL2"};
  config.ignore = {"SL3"};

  SECTION("without --select the file's lists are kept and extended") {
    CliLintOverrides flags;
    flags.extend_select = {"SL4"};
    flags.ignore = {"SL5"};
    flags.fail_on = "error";
    REQUIRE(applyCliOverrides(flags, registry, config).empty());
    CHECK(config.select == std::vector<std::string>{"SL1"});
    CHECK(config.extend_select == std::vector<std::string>{"SL2", "SL4"});
    CHECK(config.ignore == std::vector<std::string>{"SL3", "SL5"});
    CHECK(config.fail_on == analyzer::Severity::kError);
  }
  SECTION("--select replaces the file's selection") {
    CliLintOverrides flags;
    flags.select = std::vector<std::string>{"ALL"};
    REQUIRE(applyCliOverrides(flags, registry, config).empty());
    CHECK(config.select == std::vector<std::string>{"ALL"});
    CHECK(config.extend_select.empty());
    CHECK(config.ignore.empty());
  }
}

TEST_CASE("check config: unknown selectors are keyed by flag", "[cli][check]") {
  const analyzer::RuleRegistry registry = builtinRules();
  analyzer::LintConfig config;
  CliLintOverrides flags;
  flags.select = std::vector<std::string>{"no-such-rule"};
  flags.ignore = {"also-not-a-rule"};
  const auto errors = applyCliOverrides(flags, registry, config);
  REQUIRE(errors.size() == 2);
  CHECK(describeConfigError(errors[0], "/") == "--select: unknown rule selector 'no-such-rule'");
  CHECK(describeConfigError(errors[1], "/") == "--ignore: unknown rule selector 'also-not-a-rule'");
}

TEST_CASE("check config: error lines show the file relative to the working directory",
          "[cli][check]") {
  const analyzer::ConfigError error{"/repo/sub/steplint.toml",
                                    "lint.options.SL101.min-wait-fraction",
                                    "expected a number, got a string"};
  CHECK(describeConfigError(error, "/repo") ==
        "sub/steplint.toml: lint.options.SL101.min-wait-fraction: expected a number, got a string");
  CHECK(describeConfigError(error, "/elsewhere") ==
        "/repo/sub/steplint.toml: lint.options.SL101.min-wait-fraction: expected a number, got a "
        "string");
  CHECK(describeConfigError({"steplint.toml", "", "TOML syntax error at line 2, column 1: x"},
                            "/repo") == "steplint.toml: TOML syntax error at line 2, column 1: x");
}

}  // namespace
}  // namespace steplint::cli
