// The regression gate (regression.h): per-limit means, the Mann-Whitney U test, and the
// findings it adds to a lint result.
#include "steplint/analyzer/regression.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

#include "text_table.h"

namespace steplint::analyzer {
namespace {

constexpr std::string_view kCategoryKeys[kStepCategoryCount] = {
    "kernel", "memcpy", "memset", "communication", "runtime", "dataloader", "cpu_exec", "other"};

double mean(const std::vector<int64_t>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

std::vector<int64_t> perStep(const RunProfile& run, const RegressionLimit& limit) {
  if (!limit.category) return run.step_ns;
  std::vector<int64_t> out;
  for (const auto& step : run.step_category_ns)
    out.push_back(step[static_cast<size_t>(*limit.category)]);
  return out;
}

std::string percentText(double fraction) {
  if (std::isinf(fraction)) return "+inf%";
  return (fraction >= 0 ? "+" : "-") + formatFixed(100.0 * std::fabs(fraction), 1) + "%";
}

std::string pText(double p) { return p < 0.001 ? "< 0.001" : "= " + formatFixed(p, 3); }

std::string figuresText(const GateCheck& c) {
  return c.what + " " + formatMs(c.base_mean_ns) + " -> " + formatMs(c.new_mean_ns) + " ms/step (" +
         percentText(c.change()) + ", limit +" + formatFixed(100.0 * c.limit.max_fraction, 1) +
         "%)";
}

std::string testText(double p, size_t base_steps, size_t new_steps) {
  return "Mann-Whitney p " + pText(p) + " over " + std::to_string(base_steps) + " and " +
         std::to_string(new_steps) + " steps";
}

void decide(const GateOptions& options, const std::vector<int64_t>& base,
            const std::vector<int64_t>& next, double base_step_ns, GateCheck& c) {
  const std::string figures = figuresText(c);
  if (c.base_steps < options.min_steps || c.new_steps < options.min_steps) {
    c.verdict = GateVerdict::kUndecided;
    c.reason = "cannot decide: " + figures + ", but " + std::to_string(c.base_steps) +
               " steps in the base run and " + std::to_string(c.new_steps) +
               " in the new one are too few to tell a change from step-to-step noise "
               "(the test needs " +
               std::to_string(options.min_steps) + " in each)";
    return;
  }
  if (!(c.change() > c.limit.max_fraction)) {
    c.reason = figures + ": within the limit";
    return;
  }
  const double floor_ns = options.min_step_share * base_step_ns;
  if (c.limit.category && c.new_mean_ns - c.base_mean_ns < floor_ns) {
    c.reason = figures + ", but it grew by under " +
               formatFixed(100.0 * options.min_step_share, 1) + "% of the base step (" +
               formatMs(floor_ns) + " ms): too little to matter";
    return;
  }
  // The change grew beyond the limit (>= 0), so the test is the one-sided "greater" one.
  const ChangeTest test = testChange(base, next, options);
  c.p_value = test.p_value;
  if (test.significant) {
    c.verdict = GateVerdict::kRegressed;
    c.reason = figures + "; " + test.text;
  } else {
    c.reason = figures + ", but " + test.text + ": treated as noise";
  }
}

/// Several limits are several tests: each at alpha, a quiet run fails more often the more limits
/// are set (all eight categories: 2 false alarms in 96 re-recordings, docs/accuracy.md). Holm's
/// step-down correction keeps the chance of any false failure at alpha; one limit is unchanged.
void correctForLimits(const GateOptions& options, std::vector<GateCheck>& checks) {
  const size_t m = checks.size();
  if (m < 2) return;
  std::vector<GateCheck*> tested;
  for (GateCheck& c : checks)
    if (c.p_value >= 0) tested.push_back(&c);
  std::stable_sort(tested.begin(), tested.end(),
                   [](const GateCheck* a, const GateCheck* b) { return a->p_value < b->p_value; });
  bool rejecting = true;
  for (size_t r = 0; r < tested.size(); ++r) {
    GateCheck& c = *tested[r];
    const double threshold = options.alpha / static_cast<double>(m - r);
    rejecting = rejecting && c.p_value < threshold;
    if (rejecting || c.verdict != GateVerdict::kRegressed) continue;
    c.verdict = GateVerdict::kPass;
    c.reason = figuresText(c) + ", but not significant once corrected for the " +
               std::to_string(m) + " limits checked (" +
               testText(c.p_value, c.base_steps, c.new_steps) + "; Holm's correction needs p < " +
               formatFixed(threshold, 4) + "): treated as noise";
  }
}

// "base.json", or "the slowest of 3 base runs, b2.json".
std::string baseText(const GateCheck& c, const std::string& base_source) {
  if (c.base_runs < 2) return base_source;
  return "the slowest of " + std::to_string(c.base_runs) + " base runs, " + c.base_source;
}

}  // namespace

std::string_view stepCategoryKey(StepCategory c) { return kCategoryKeys[static_cast<size_t>(c)]; }

std::optional<StepCategory> parseStepCategoryKey(std::string_view key) {
  for (int i = 0; i < kStepCategoryCount; ++i)
    if (kCategoryKeys[i] == key) return static_cast<StepCategory>(i);
  return std::nullopt;
}

std::string parseRegressionLimit(std::string_view text, RegressionLimit& out) {
  RegressionLimit limit;
  if (const size_t eq = text.find('='); eq != std::string_view::npos) {
    const std::string_view key = text.substr(0, eq);
    limit.category = parseStepCategoryKey(key);
    if (!limit.category && key != "step") {
      std::string keys = "step";
      for (std::string_view k : kCategoryKeys) keys += ", " + std::string(k);
      return "unknown category '" + std::string(key) + "'; expected one of: " + keys;
    }
    text.remove_prefix(eq + 1);
  }
  if (!text.empty() && text.back() == '%') text.remove_suffix(1);
  double percent = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), percent);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    return "expected a percentage such as 5% or kernel=10%";
  if (!(percent >= 0) || percent > 1e6) return "expected a percentage of 0 or more";
  limit.max_fraction = percent / 100.0;
  out = limit;
  return "";
}

MannWhitneyResult mannWhitneyGreater(const std::vector<int64_t>& base,
                                     const std::vector<int64_t>& next) {
  MannWhitneyResult r;
  const size_t n1 = next.size(), n2 = base.size(), n = n1 + n2;
  if (n1 == 0 || n2 == 0) return r;
  std::vector<std::pair<int64_t, bool>> all;  // (value, from next)
  all.reserve(n);
  for (int64_t v : next) all.emplace_back(v, true);
  for (int64_t v : base) all.emplace_back(v, false);
  std::sort(all.begin(), all.end());
  double rank_sum_next = 0, tie_term = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && all[j].first == all[i].first) ++j;
    const double average_rank =
        (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;  // ranks i+1..j
    for (size_t k = i; k < j; ++k)
      if (all[k].second) rank_sum_next += average_rank;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2),
               dn = static_cast<double>(n);
  r.u = rank_sum_next - d1 * (d1 + 1) / 2;
  const double variance = d1 * d2 / 12.0 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (variance <= 0) return r;  // every value equal: no evidence either way
  r.z = (r.u - d1 * d2 / 2.0 - 0.5) / std::sqrt(variance);
  r.p_greater = 0.5 * std::erfc(r.z / std::sqrt(2.0));
  return r;
}

ChangeTest testChange(const std::vector<int64_t>& base, const std::vector<int64_t>& next,
                      const GateOptions& options) {
  ChangeTest t;
  const double delta = mean(next) - mean(base);
  if (delta == 0 || base.empty() || next.empty()) return t;
  if (base.size() < options.min_steps || next.size() < options.min_steps) {
    t.text = "too few steps to tell from step-to-step noise (" + std::to_string(base.size()) +
             " and " + std::to_string(next.size()) + "; the test needs " +
             std::to_string(options.min_steps) + " in each)";
    return t;
  }
  t.tested = true;
  // One-sided in the direction of the change: a faster run is tested for being faster.
  t.p_value =
      (delta > 0 ? mannWhitneyGreater(base, next) : mannWhitneyGreater(next, base)).p_greater;
  t.significant = t.p_value < options.alpha;
  t.text = std::string(t.significant ? "significant" : "not significant") +
           " given the per-step spread (" + testText(t.p_value, base.size(), next.size()) + ")";
  return t;
}

std::string_view gateVerdictName(GateVerdict verdict) {
  switch (verdict) {
    case GateVerdict::kPass:
      return "pass";
    case GateVerdict::kRegressed:
      return "regressed";
    case GateVerdict::kUndecided:
      return "undecided";
  }
  return "pass";
}

double GateCheck::change() const {
  if (base_mean_ns > 0) return (new_mean_ns - base_mean_ns) / base_mean_ns;
  return new_mean_ns > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

std::vector<GateCheck> runGate(const RunProfile& base, const RunProfile& next,
                               const GateOptions& options) {
  return runGate(std::vector<const RunProfile*>{&base}, next, options);
}

std::vector<GateCheck> runGate(const std::vector<const RunProfile*>& bases, const RunProfile& next,
                               const GateOptions& options) {
  std::vector<GateCheck> out;
  for (const RegressionLimit& limit : options.limits) {
    // The slowest base run for this limit (the first of equals): the others are faster still.
    const RunProfile* slowest = nullptr;
    double slowest_mean = 0;
    for (const RunProfile* b : bases)
      if (const double m = mean(perStep(*b, limit)); !slowest || m > slowest_mean)
        slowest = b, slowest_mean = m;
    const RunProfile& base = *slowest;
    const double base_step_ns = mean(base.step_ns);
    GateCheck c;
    if (bases.size() > 1) c.base_source = base.source, c.base_runs = bases.size();
    c.limit = limit;
    c.what =
        limit.category ? std::string(stepCategoryName(*limit.category)) + " time" : "step time";
    c.key = limit.category ? std::string(stepCategoryKey(*limit.category)) : "step";
    const std::vector<int64_t> b = perStep(base, limit), n = perStep(next, limit);
    c.base_mean_ns = mean(b);
    c.new_mean_ns = mean(n);
    c.base_steps = b.size();
    c.new_steps = n.size();
    decide(options, b, n, base_step_ns, c);
    out.push_back(std::move(c));
  }
  correctForLimits(options, out);
  return out;
}

RuleInfo regressionRuleInfo() {
  return {kRegressionCode,
          kRegressionName,
          Category::kComparison,
          Severity::kError,
          true,
          "step time (or a category's time) grew beyond --max-regression against the "
          "--compare base run, beyond run-to-run noise"};
}

void addGateResults(const std::vector<GateCheck>& checks, const std::string& base_source,
                    LintResult& lint, const std::vector<std::string>& notes) {
  std::string caveat;
  for (const std::string& n : notes) caveat += (caveat.empty() ? "" : "; ") + n;
  std::vector<Diagnostic> regressions;
  for (const GateCheck& c : checks) {
    if (c.verdict == GateVerdict::kUndecided) {
      lint.not_checked.push_back(
          {std::string(kRegressionCode), std::string(kRegressionName), c.reason});
      continue;
    }
    if (c.verdict != GateVerdict::kRegressed) continue;
    Diagnostic d;
    d.code = std::string(kRegressionCode);
    d.name = std::string(kRegressionName);
    d.severity = Severity::kError;
    d.message = c.reason + " against " + baseText(c, base_source);
    if (!caveat.empty()) d.message += " (the runs may not be comparable: " + caveat + ")";
    d.fingerprint_key = c.key;
    d.evidence.metrics = {{"regression_fraction", c.change()},
                          {"base_ms_per_step", c.base_mean_ns / 1e6},
                          {"new_ms_per_step", c.new_mean_ns / 1e6},
                          {"p_value", c.p_value}};
    d.saving.method = "a regression against the base run, not a fix: it costs " +
                      formatMs(c.new_mean_ns - c.base_mean_ns) + " ms/step";
    d.fix = {"steplint diff " + (c.base_source.empty() ? base_source : c.base_source) + " " +
             (lint.source.empty() ? "NEW" : lint.source) + " shows which ops and kernels changed"};
    regressions.push_back(std::move(d));
  }
  // Errors lead the list (LintResult's order: severity first).
  lint.diagnostics.insert(lint.diagnostics.begin(), regressions.begin(), regressions.end());
}

}  // namespace steplint::analyzer
