// The [compare] and [baseline] sections (compare_config.h): values read, and every mistake
// named by its dotted key; the lint reader accepts both sections.
#include <catch2/catch.hpp>

#include "fake_rules.h"
#include "steplint/analyzer/compare_config.h"
#include "temp_dir.h"

namespace steplint::test {
namespace {

struct Loaded {
  analyzer::GateOptions gate;
  analyzer::BaselineOptions baseline;
  std::vector<analyzer::ConfigError> errors;       // from loadCompareConfig
  std::vector<analyzer::ConfigError> lint_errors;  // from loadLintConfig on the same file
};

Loaded load(const std::string& text, const std::string& file = "steplint.toml") {
  TempDir dir;
  const std::string path = dir.write(file, text);
  Loaded out;
  out.errors = analyzer::loadCompareConfig(path, out.gate, out.baseline);
  analyzer::RuleRegistry registry;
  addFakeRules(registry);
  analyzer::LintConfig config;
  out.lint_errors = analyzer::loadLintConfig(path, registry, config);
  return out;
}

std::string onlyError(const Loaded& l) {
  REQUIRE(l.errors.size() == 1);
  return l.errors[0].key + ": " + l.errors[0].message;
}

TEST_CASE("compare config: limits, level, steps and baseline options are read",
          "[engine][config][compare]") {
  const Loaded l = load(
      "[compare]\nmax-regression = [\"3%\", \"kernel=10%\"]\nsignificance = 0.01\nmin-steps = 8\n"
      "[baseline]\nscope = \"rank\"\nworse-factor = 3\n");
  CHECK(l.errors.empty());
  CHECK(l.lint_errors.empty());
  REQUIRE(l.gate.limits.size() == 2);
  CHECK_FALSE(l.gate.limits[0].category);
  CHECK(l.gate.limits[0].max_fraction == Approx(0.03));
  CHECK(l.gate.limits[1].category == analyzer::StepCategory::kKernel);
  CHECK(l.gate.alpha == Approx(0.01));
  CHECK(l.gate.min_steps == 8);
  CHECK(l.baseline.scope == analyzer::BaselineScope::kRank);
  CHECK(l.baseline.worse_factor == Approx(3));

  const Loaded py = load("[tool.steplint.compare]\nmax-regression = \"7%\"\n", "pyproject.toml");
  CHECK(py.errors.empty());
  REQUIRE(py.gate.limits.size() == 1);
  CHECK(py.gate.limits[0].max_fraction == Approx(0.07));
  CHECK(load("[lint]\nfail-on = \"error\"\n").gate.limits.empty());  // no section: nothing changes
}

TEST_CASE("compare config: mistakes name the key", "[engine][config][compare]") {
  CHECK(onlyError(load("[compare]\nmax-regression = 5\n")) ==
        "compare.max-regression: expected a string such as \"5%\" or a list of them");
  CHECK(onlyError(load("[compare]\nmax-regression = [\"gpu=5%\"]\n"))
            .rfind("compare.max-regression: unknown category 'gpu'", 0) == 0);
  CHECK(onlyError(load("[compare]\nsignificance = 2\n")) ==
        "compare.significance: expected a number between 0 and 1, such as 0.05");
  CHECK(onlyError(load("[compare]\nmin-steps = 1\n")) ==
        "compare.min-steps: expected a whole number of steps, 2 or more");
  CHECK(onlyError(load("[compare]\nlimit = 1\n")) ==
        "compare.limit: unknown key; expected one of: max-regression, significance, min-steps");
  CHECK(onlyError(load("compare = 1\n")) == "compare: expected a table");
  CHECK(onlyError(load("[baseline]\nscope = \"job\"\n")) ==
        "baseline.scope: expected \"file\", \"rank\" or \"none\"");
  CHECK(onlyError(load("[baseline]\nworse-factor = 1\n")) ==
        "baseline.worse-factor: expected a number above 1, such as 2.0");
}

}  // namespace
}  // namespace steplint::test
