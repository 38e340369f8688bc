// Rule selection: defaults -> select -> extend-select -> ignore (LintConfig::selectedRules).
#include <catch2/catch.hpp>

#include <algorithm>

#include "fake_rules.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/analyzer/suggest.h"

namespace steplint::test {
namespace {

using Codes = std::vector<std::string>;

Codes selected(const analyzer::LintConfig& config) {
  analyzer::RuleRegistry registry;
  addFakeRules(registry);
  return codesOf(config.selectedRules(registry));
}

TEST_CASE("selection: defaults are the rules enabled by default", "[engine][selection]") {
  CHECK(selected({}) == Codes{"SL001", "SL101", "SL102", "SL201"});
}

TEST_CASE("selection: select replaces the defaults", "[engine][selection]") {
  analyzer::LintConfig config;
  config.select = {"SL1"};
  CHECK(selected(config) == Codes{"SL101", "SL102"});
  config.select = {"pageable-h2d-copy", "SL001"};
  CHECK(selected(config) == Codes{"SL001", "SL201"});  // registry order, not selector order
  config.select = {"ALL"};
  CHECK(selected(config) == Codes{"SL001", "SL101", "SL102", "SL201", "SL901"});
  config.select = {"SL10"};
  CHECK(selected(config) == Codes{"SL101", "SL102"});
}

TEST_CASE("selection: extend-select adds, ignore removes, ignore wins", "[engine][selection]") {
  analyzer::LintConfig config;
  config.extend_select = {"SL901"};
  CHECK(selected(config) == Codes{"SL001", "SL101", "SL102", "SL201", "SL901"});
  config.ignore = {"SL1", "dropped-thing"};
  CHECK(selected(config) == Codes{"SL201", "SL901"});
  config.select = {"SL101"};
  config.extend_select = {};
  config.ignore = {"SL1"};
  CHECK(selected(config).empty());
}

TEST_CASE("selection: validateSelectors", "[engine][selection]") {
  analyzer::RuleRegistry registry;
  addFakeRules(registry);
  analyzer::LintConfig config;
  config.select = {"ALL",   "SL",
                   "SL7",   "SL10",
                   "SL101", "dataloader-wait"};  // categories, and prefixes of rules, are fine
  config.extend_select = {"SL777", "SL77"};      // no rule has these: typos
  config.ignore = {"nonsense"};
  const auto errors = analyzer::validateSelectors(config, registry);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].key == "lint.extend-select");
  CHECK(errors[0].message == "unknown rule selector 'SL777'");
  CHECK(errors[1].message == "unknown rule selector 'SL77'");
  CHECK(errors[2].key == "lint.ignore");
}

TEST_CASE("selection: job rules are selected, ignored and validated as per-trace rules are (#14)",
          "[engine][selection]") {
  analyzer::RuleRegistry registry;
  addFakeRules(registry);
  const analyzer::RuleInfo straggler{"SL701",
                                     "straggler-rank",
                                     analyzer::Category::kJob,
                                     analyzer::Severity::kWarning,
                                     true,
                                     "one rank keeps the others waiting"};
  registry.addApartRuleInfo(straggler);
  analyzer::LintConfig config;
  CHECK(config.selects(straggler));  // enabled by default
  config.ignore = {"SL7"};
  CHECK_FALSE(config.selects(straggler));
  config.ignore = {};
  config.select = {"SL1"};
  CHECK_FALSE(config.selects(straggler));
  config.extend_select = {"straggler-rank"};
  CHECK(config.selects(straggler));
  CHECK(codesOf(config.selectedRules(registry)) ==
        Codes{"SL101", "SL102"});  // per-trace rules only

  config = {};
  config.select = {"SL701", "straggler-rank"};
  CHECK(analyzer::validateSelectors(config, registry).empty());
  config.select = {"SL702"};
  REQUIRE(analyzer::validateSelectors(config, registry).size() == 1);
  const auto names = analyzer::ruleCodesAndNames(registry);
  CHECK(std::find(names.begin(), names.end(), "straggler-rank") != names.end());
}

}  // namespace
}  // namespace steplint::test
