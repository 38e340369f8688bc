#include "steplint/analyzer/regression.h"

#include <catch2/catch.hpp>

using namespace steplint;
using analyzer::GateVerdict;
using analyzer::StepCategory;

namespace {

analyzer::RunProfile run(std::vector<int64_t> steps, int64_t kernel_per_step = 0) {
  analyzer::RunProfile p;
  p.step_ns = std::move(steps);
  for (size_t i = 0; i < p.step_ns.size(); ++i) {
    std::array<int64_t, analyzer::kStepCategoryCount> ns{};
    ns[static_cast<size_t>(StepCategory::kKernel)] = kernel_per_step + static_cast<int64_t>(i);
    p.step_category_ns.push_back(ns);
  }
  return p;
}

}  // namespace

TEST_CASE("Mann-Whitney U: the normal approximation scipy's asymptotic test gives",
          "[regression]") {
  // scipy.stats.mannwhitneyu(new, base, alternative="greater", method="asymptotic") = 0.00609
  auto r = analyzer::mannWhitneyGreater({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  CHECK(r.u == 25);
  CHECK(r.z == Approx(2.50672).epsilon(1e-4));
  CHECK(r.p_greater == Approx(0.0060929).epsilon(1e-4));
  // Ties take average ranks and shrink the variance.
  r = analyzer::mannWhitneyGreater({1, 1, 2, 2, 3}, {2, 3, 3, 3, 5});
  CHECK(r.u == 21.5);
  CHECK(r.p_greater == Approx(0.0312835).epsilon(1e-4));
  // The same samples: no evidence of growth; faster: none either.
  CHECK(analyzer::mannWhitneyGreater({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}).p_greater ==
        Approx(0.54224).epsilon(1e-4));
  CHECK(analyzer::mannWhitneyGreater({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}).p_greater > 0.99);
  CHECK(analyzer::mannWhitneyGreater({4, 4, 4}, {4, 4, 4}).p_greater == 1);
  CHECK(analyzer::mannWhitneyGreater({}, {1, 2}).p_greater == 1);
}

TEST_CASE("regression limits parse from the command line and config syntax", "[regression]") {
  analyzer::RegressionLimit l;
  CHECK(analyzer::parseRegressionLimit("5%", l).empty());
  CHECK_FALSE(l.category);
  CHECK(l.max_fraction == Approx(0.05));
  CHECK(analyzer::parseRegressionLimit("kernel=12.5%", l).empty());
  CHECK(l.category == StepCategory::kKernel);
  CHECK(l.max_fraction == Approx(0.125));
  CHECK(analyzer::parseRegressionLimit("cpu_exec=3", l).empty());
  CHECK(l.category == StepCategory::kCpuExec);
  CHECK(analyzer::parseRegressionLimit("step=1%", l).empty());
  CHECK_FALSE(l.category);
  CHECK(analyzer::parseRegressionLimit("five", l).find("expected a percentage") == 0);
  CHECK(analyzer::parseRegressionLimit("", l).find("expected a percentage") == 0);
  CHECK(analyzer::parseRegressionLimit("-5%", l).find("expected a percentage") == 0);
  CHECK(analyzer::parseRegressionLimit("gpu=5%", l).find("unknown category 'gpu'") == 0);
}

TEST_CASE("the gate fails only beyond the limit and significant", "[regression]") {
  const auto base = run({100, 102, 98, 101, 99, 100, 103, 97}, 50);
  analyzer::GateOptions options;
  options.limits = {{std::nullopt, 0.05}, {StepCategory::kKernel, 0.10}};

  SECTION("a shift of every step by 10% regresses the step, not the kernels") {
    const auto checks =
        analyzer::runGate(base, run({110, 112, 108, 111, 109, 110, 113, 107}, 50), options);
    REQUIRE(checks.size() == 2);
    CHECK(checks[0].verdict == GateVerdict::kRegressed);
    CHECK(checks[0].change() == Approx(0.10));
    CHECK(checks[0].p_value < 0.01);
    CHECK(checks[0].key == "step");
    CHECK(checks[1].verdict == GateVerdict::kPass);
    CHECK(checks[1].key == "kernel");
    CHECK(checks[1].p_value < 0);  // within the limit: not tested
    analyzer::LintResult lint;
    lint.source = "new.json";
    analyzer::addGateResults(checks, "base.json", lint);
    REQUIRE(lint.diagnostics.size() == 1);
    CHECK(lint.diagnostics[0].fingerprint() == "SL801:step");
    CHECK(lint.diagnostics[0].severity == analyzer::Severity::kError);
    CHECK(lint.diagnostics[0].message.find("+10.0%, limit +5.0%") != std::string::npos);
    CHECK(lint.diagnostics[0].evidence.metric("regression_fraction") == Approx(0.10));
    // Runs diff would call incomparable say so in the finding itself.
    analyzer::LintResult noted;
    analyzer::addGateResults(checks, "base.json", noted, {"the runs ran on different devices"});
    REQUIRE(noted.diagnostics.size() == 1);
    CHECK(noted.diagnostics[0].message.find(
              "against base.json (the runs may not be comparable: the runs ran on different "
              "devices)") != std::string::npos);
  }
  SECTION("one slow outlier lifts the mean beyond the limit but is not significant") {
    const auto checks =
        analyzer::runGate(base, run({100, 102, 98, 101, 99, 100, 103, 160}, 50), options);
    CHECK(checks[0].change() > 0.05);
    CHECK(checks[0].verdict == GateVerdict::kPass);
    CHECK(checks[0].p_value > 0.05);
    CHECK(checks[0].reason.find("not significant") != std::string::npos);
  }
  SECTION("too few steps: undecided, a not-checked entry, never a finding") {
    const auto checks = analyzer::runGate(base, run({150, 150, 150, 150}, 50), options);
    CHECK(checks[0].verdict == GateVerdict::kUndecided);
    analyzer::LintResult lint;
    analyzer::addGateResults(checks, "base.json", lint);
    CHECK(lint.diagnostics.empty());
    REQUIRE(lint.not_checked.size() == 2);
    CHECK(lint.not_checked[0].code == "SL801");
    CHECK(lint.not_checked[0].reason.find("4 in the new one are too few") != std::string::npos);
  }
}

TEST_CASE("a category's growth must also matter to the step", "[regression]") {
  // kernel=10% on a category of 1 us in 1 ms steps: +80% is significant but is 0.08% of the
  // step, under the 0.1% floor; a growth of 1% of the step fails.
  const std::vector<int64_t> steps = {1000000, 1002000, 998000,  1001000,
                                      999000,  1000000, 1003000, 997000};
  analyzer::GateOptions options;
  options.limits = {{StepCategory::kKernel, 0.10}};
  const auto tiny = analyzer::runGate(run(steps, 1000), run(steps, 1800), options);
  REQUIRE(tiny.size() == 1);
  CHECK(tiny[0].change() > 0.7);
  CHECK(tiny[0].verdict == GateVerdict::kPass);
  CHECK(tiny[0].reason.find("grew by under 0.1% of the base step (0.001 ms)") != std::string::npos);
  CHECK(tiny[0].reason.find("too little to matter") != std::string::npos);
  const auto real = analyzer::runGate(run(steps, 1000), run(steps, 11000), options);
  CHECK(real[0].verdict == GateVerdict::kRegressed);
  options.min_step_share = 0;  // no floor: the tiny growth fails too
  CHECK(analyzer::runGate(run(steps, 1000), run(steps, 1800), options)[0].verdict ==
        GateVerdict::kRegressed);
}

TEST_CASE("several limits are corrected for together (Holm)", "[regression]") {
  // Eight steps each: a step-time shift that one limit alone calls significant at 0.05 is
  // not once three limits share the budget, while a clear shift still fails.
  const auto base = run({100, 102, 98, 101, 99, 100, 103, 97}, 50);
  const auto marginal = run({100, 104, 101, 103, 102, 105, 104, 100}, 50);
  analyzer::GateOptions one;
  one.limits = {{std::nullopt, 0.01}};
  const auto alone = analyzer::runGate(base, marginal, one);
  REQUIRE(alone[0].verdict == GateVerdict::kRegressed);
  REQUIRE(alone[0].p_value > 0.05 / 3);
  analyzer::GateOptions three = one;
  three.limits = {
      {std::nullopt, 0.01}, {StepCategory::kKernel, 0.10}, {StepCategory::kOther, 0.10}};
  const auto corrected = analyzer::runGate(base, marginal, three);
  CHECK(corrected[0].verdict == GateVerdict::kPass);
  CHECK(corrected[0].p_value == Approx(alone[0].p_value));
  CHECK(corrected[0].reason.find("not significant once corrected for the 3 limits checked") !=
        std::string::npos);
  const auto clear =
      analyzer::runGate(base, run({120, 122, 118, 121, 119, 120, 123, 117}, 50), three);
  CHECK(clear[0].verdict == GateVerdict::kRegressed);
}

TEST_CASE("several base recordings: the new run is compared with the slowest", "[regression]") {
  // Three recordings of one trainer whose runs differ by more than their steps do (another job
  // on the machine): 30, 33 and 31.5 ms, each step within +-0.4 ms of its run's mean.
  const auto around = [](int64_t mean_us) {
    std::vector<int64_t> steps;
    for (int64_t i = 0; i < 10; ++i) steps.push_back((mean_us + (i % 5) * 200 - 400) * 1000);
    return run(steps);
  };
  analyzer::RunProfile a = around(30'000), b = around(33'000), c = around(31'500);
  a.source = "a.json", b.source = "b.json", c.source = "c.json";
  const analyzer::RunProfile next = around(33'500);  // +11.7 % on a, +1.5 % on b
  analyzer::GateOptions options;
  options.limits = {{std::nullopt, 0.05}};
  SECTION("against one of them alone, a run-to-run shift reads as a regression") {
    const auto checks = analyzer::runGate(a, next, options);
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].verdict == GateVerdict::kRegressed);
    CHECK(checks[0].base_runs == 1);
  }
  SECTION("against all three: within the limit of the slowest, which is named") {
    const auto checks = analyzer::runGate({&a, &b, &c}, next, options);
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].verdict == GateVerdict::kPass);
    CHECK(checks[0].base_mean_ns == Approx(33e6));
    CHECK(checks[0].base_runs == 3);
    CHECK(checks[0].base_source == "b.json");
  }
  SECTION("a real regression is slower than every recording, and the finding says which") {
    const analyzer::RunProfile slow = around(37'000);
    const auto checks = analyzer::runGate({&a, &b, &c}, slow, options);
    REQUIRE(checks[0].verdict == GateVerdict::kRegressed);
    analyzer::LintResult lint;
    lint.source = "new.json";
    analyzer::addGateResults(checks, "a.json", lint);
    REQUIRE(lint.diagnostics.size() == 1);
    CHECK(lint.diagnostics[0].message.find("against the slowest of 3 base runs, b.json") !=
          std::string::npos);
    CHECK(lint.diagnostics[0].fix.front() ==
          "steplint diff b.json new.json shows which ops and kernels changed");
  }
}
