// The step-time regression gate: `steplint check NEW --compare BASE --max-regression 5%`
// (docs/analyses.md "The regression gate"). A limit fails only when the mean per-step time
// (of the step, or of one breakdown category) grew beyond it AND a one-sided Mann-Whitney U
// test on the per-step times says the new run's steps are slower than chance would make them:
// two recordings of the same trainer differ by noise, and a gate that fails on noise is
// switched off. With too few steps the gate says it cannot decide and does not fail.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/run_diff.h"

namespace steplint::analyzer {

/// The code and name the gate's findings carry (docs/rules/SL801-step-time-regression.md).
inline constexpr std::string_view kRegressionCode = "SL801";
inline constexpr std::string_view kRegressionName = "step-time-regression";

/// The gate as a rule: selectable and ignorable like any other (--select SL801 runs the gate
/// alone), listed by `steplint rules`, run by `check --compare` apart from a trace's rules.
RuleInfo regressionRuleInfo();

/// "kernel", "memcpy", ..., "cpu_exec", "other": the snake_case keys of JSON and steplint.toml.
std::string_view stepCategoryKey(StepCategory c);
std::optional<StepCategory> parseStepCategoryKey(std::string_view key);

struct RegressionLimit {
  std::optional<StepCategory> category;  // none: the whole step
  double max_fraction = 0.05;            // 0.05 = the mean may grow by 5%
};

/// Parses "5%", "5" (percent) or "kernel=10%"; "" on success, else why not.
std::string parseRegressionLimit(std::string_view text, RegressionLimit& out);

struct GateOptions {
  std::vector<RegressionLimit> limits;
  double alpha = 0.05;   // one-sided significance level of the test
  size_t min_steps = 5;  // per run; below it the test cannot reach alpha reliably
  /// A category's growth must also be this share of the base run's mean step: `kernel=10%` on
  /// a category of 0.01 ms per step would otherwise fail CI for 0.001 ms, however significant.
  /// The step limit itself needs no floor (its percentage is of the step already).
  double min_step_share = 0.001;
};

struct MannWhitneyResult {
  double u = 0;          // U of the new run: pairs (base, new) where new is larger, ties half
  double z = 0;          // normal approximation, tie- and continuity-corrected
  double p_greater = 1;  // one-sided: P(a U this large | both runs have the same distribution)
};

/// One-sided Mann-Whitney U test that `next` tends to exceed `base`. Normal approximation with
/// average ranks for ties (the variance corrected for them) and a continuity correction;
/// p_greater is 1 when every value is equal. Empty input gives p 1.
MannWhitneyResult mannWhitneyGreater(const std::vector<int64_t>& base,
                                     const std::vector<int64_t>& next);

/// The gate's test for any two runs' per-step values: whether `next` moved from `base` beyond
/// step-to-step noise in the direction its mean moved (one-sided Mann-Whitney U at
/// options.alpha; untested with fewer than options.min_steps in a run, or when the means are
/// equal). `steplint diff` puts it beside its change of the mean.
ChangeTest testChange(const std::vector<int64_t>& base, const std::vector<int64_t>& next,
                      const GateOptions& options = {});

enum class GateVerdict : uint8_t { kPass, kRegressed, kUndecided };
std::string_view gateVerdictName(GateVerdict verdict);  // "pass" | "regressed" | "undecided"

struct GateCheck {
  RegressionLimit limit;
  std::string what;  // "step time", "Kernel time"
  std::string key;   // "step", "kernel": the finding's fingerprint key
  double base_mean_ns = 0, new_mean_ns = 0;
  size_t base_steps = 0, new_steps = 0;
  double p_value = -1;  // < 0: not tested (too few steps, or no growth beyond the limit)
  GateVerdict verdict = GateVerdict::kPass;
  std::string reason;  // one sentence with the figures
  /// With several base runs: the one compared with (the slowest for this limit) and how many
  /// there were; empty and 1 with one.
  std::string base_source;
  size_t base_runs = 1;
  /// (new - base) / base; 0 when base is 0 and new is too, +inf when only base is 0.
  double change() const;
};

/// Evaluates every limit of `options` on the two runs' per-step times.
std::vector<GateCheck> runGate(const RunProfile& base, const RunProfile& next,
                               const GateOptions& options);

/// The same against several recordings of the base run (the same trainer recorded k times).
/// The step-to-step test cannot see what moves a whole run (another job on the machine, clocks,
/// a slower node): two recordings of one trainer can differ by more than their steps vary. So
/// each limit compares the new run with the slowest base run for that limit, as above: a new run
/// fails only when it is slower than every base recording by more than the limit, beyond its
/// steps' noise. `bases` must not be empty.
std::vector<GateCheck> runGate(const std::vector<const RunProfile*>& bases, const RunProfile& next,
                               const GateOptions& options);

/// Puts the gate's outcome into the new run's lint result, so every emitter shows it: a
/// regressed check becomes an error-severity SL801 finding (first in the list), an undecided
/// one a "not checked" entry with its reason. `notes` (RunDiff::notes: different devices or
/// models, no steps) go into each regression's message: the runs may not be comparable.
void addGateResults(const std::vector<GateCheck>& checks, const std::string& base_source,
                    LintResult& lint, const std::vector<std::string>& notes = {});

}  // namespace steplint::analyzer
