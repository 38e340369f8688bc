// SL701 straggler-rank, SL702 load-imbalance, SL703 time-lost-at-collectives on hand-built
// job analyses: each fires on its pattern with the figures of the analysis, stays silent on a
// balanced job, and says "not checked" with the analysis's reason.
#include <catch2/catch.hpp>

#include "steplint/analyzer/job_rule.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/job_rules.h"

using namespace steplint::analyzer;

namespace {

// Four ranks, six steps of 40 ms; step s is late on late_rank(s) by late_ms (-1: none).
template <typename LateRank>
JobAnalysis makeJob(LateRank late_rank, double late_ms, LateCause cause = LateCause::kGpuCompute) {
  JobAnalysis job;
  job.identity = "world_size=4 backend=nccl";
  job.world_size = 4;
  job.median_step_ns = 40e6;
  job.has_collectives = true;
  job.matched_collectives = 12;
  for (int64_t r = 0; r < 4; ++r) job.ranks.push_back(JobRank{r, "rank" + std::to_string(r)});
  std::map<int64_t, int64_t> late_count;
  for (int s = 0; s < 6; ++s) {
    JobStep step;
    step.number = s + 1;
    step.median_step_ns = 40'000'000;
    step.collectives = 2;
    const int64_t r = late_rank(s);
    if (r >= 0) {
      step.straggler = r;
      step.late_ns = static_cast<int64_t>(late_ms * 1e6);
      step.cause = cause;
      if (cause == LateCause::kGpuCompute) step.grown_kernels = {{"sgemm_nt", step.late_ns}};
      ++late_count[r];
    }
    job.steps.push_back(step);
  }
  for (const auto& [r, n] : late_count)
    if (2 * n >= 6 && n > job.straggler_steps) {
      job.straggler = r, job.straggler_steps = n, job.straggler_cause = cause,
      job.mean_late_ns = late_ms * 1e6;
    }
  // Three of four ranks wait for the late one in its late steps; the mean is over all steps.
  int64_t late_steps = 0;
  for (const JobStep& s : job.steps) late_steps += s.straggler >= 0;
  job.mean_wait_ns = late_ms * 1e6 * 0.75 * static_cast<double>(late_steps) / 6.0;
  return job;
}

JobLintResult lint(const JobAnalysis& job, const LintConfig& config = {}) {
  JobRuleRegistry registry;
  steplint::rules::registerJobRules(registry);
  return lintJob(job, registry, config);
}

}  // namespace

TEST_CASE("SL701: one rank late in every step is named with its cause, kernel and saving") {
  const JobLintResult result = lint(makeJob([](int) { return 2; }, 8.0));
  REQUIRE(result.diagnostics.size() == 1);
  const Diagnostic& d = result.diagnostics[0];
  CHECK(d.code == "SL701");
  CHECK(
      d.message ==
      "rank 2 keeps the other 3 rank(s) waiting in 6 of 6 steps, 8.0 ms each time; cause: GPU compute "
      "(sgemm_nt +8.0 ms per step)");
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
  CHECK(d.evidence.metric("rank") == 2);
  CHECK(d.saving.per_step_ms == Approx(8.0));
  CHECK(d.saving.fraction_of_step == Approx(0.2));
  CHECK(d.fingerprint() == "SL701:rank2");
  REQUIRE(d.fix.size() == 1);
  CHECK(d.fix[0].find("Balance the GPU work") != std::string::npos);
}

TEST_CASE(
    "SL701: a straggler in 4 of 6 steps saves 4/6 of its delay per step, the fix follows the cause") {
  const JobLintResult result =
      lint(makeJob([](int s) { return s < 4 ? 1 : -1; }, 6.0, LateCause::kInputPipeline));
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].saving.per_step_ms == Approx(4.0));
  CHECK(result.diagnostics[0].fix[0].find("input pipeline") != std::string::npos);
}

TEST_CASE("SL702: late ranks that change from step to step are load imbalance, not a straggler") {
  const JobLintResult result = lint(makeJob([](int s) { return s % 3; }, 3.0));
  REQUIRE(result.diagnostics.size() == 1);
  const Diagnostic& d = result.diagnostics[0];
  CHECK(d.code == "SL702");
  CHECK(d.message.find("6 of 6 steps") != std::string::npos);
  CHECK(d.message.find("(ranks 0, 1, 2)") != std::string::npos);
  CHECK(d.saving.per_step_ms == Approx(3.0));
  CHECK(d.evidence.metric("late_ranks") == 3);
}

TEST_CASE("SL703: waiting spread over collectives with no late rank per step") {
  JobAnalysis job = makeJob([](int) { return -1; }, 0.0);
  job.mean_wait_ns = 6e6;  // 15 % of the 40 ms step
  const JobLintResult result = lint(job);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].code == "SL703");
  CHECK(result.diagnostics[0].evidence.metric("wait_fraction") == Approx(0.15));
  CHECK(result.diagnostics[0].saving.per_step_ms == Approx(6.0));
  job.mean_wait_ns = 3e6;  // 7.5 %: what collectives cost anyway
  CHECK(lint(job).diagnostics.empty());
}

TEST_CASE("job rules: fixing all job findings saves their saving, once (check's saving_all)") {
  const JobLintResult straggler = lint(makeJob([](int) { return 2; }, 8.0));
  CHECK(straggler.saving_all.per_step_ms == Approx(8.0));
  CHECK(straggler.saving_all.fraction_of_step == Approx(0.2));
  CHECK(straggler.saving_all.step_ms == Approx(40.0));
  CHECK(straggler.saving_all.findings == 1);
  CHECK(straggler.saving_all.replayed_steps == 0);
  const JobLintResult none = lint(makeJob([](int) { return -1; }, 0.0));
  CHECK(none.saving_all.per_step_ms < 0);  // JSON null: no finding has a time saving
  // Two views of the same waiting count once: the largest, not the sum.
  std::vector<Diagnostic> both = straggler.diagnostics;
  both.push_back(lint(makeJob([](int s) { return s % 3; }, 3.0)).diagnostics.at(0));
  const SavingsTotal total = jobSavingsTotal(both, 40e6);
  CHECK(total.per_step_ms == Approx(8.0));
  CHECK(total.findings == 2);
}

TEST_CASE("job rules: a balanced job, or a rank late once, gets no finding") {
  CHECK(lint(makeJob([](int) { return -1; }, 0.0)).diagnostics.empty());
  CHECK(lint(makeJob([](int s) { return s == 3 ? 1 : -1; }, 9.0)).diagnostics.empty());
}

TEST_CASE("job rules: the analysis's reasons are each rule's not-checked reasons") {
  JobAnalysis job = makeJob([](int) { return -1; }, 0.0);
  job.not_checked.push_back("one rank: there is no other rank to compare it with");
  const JobLintResult result = lint(job);
  CHECK(result.diagnostics.empty());
  REQUIRE(result.not_checked.size() == 3);
  CHECK(result.not_checked[0].code == "SL701");
  CHECK(result.not_checked[2].reason == "one rank: there is no other rank to compare it with");
}

TEST_CASE("job rules: the configuration selects them as it selects per-trace rules (#14)") {
  const JobAnalysis job = makeJob([](int) { return 1; }, 8.0);
  LintConfig ignore;
  ignore.ignore = {"SL701"};
  const JobLintResult without = lint(job, ignore);
  CHECK(without.diagnostics.empty());
  LintConfig only;
  only.select = {"SL7"};
  CHECK(lint(job, only).diagnostics.size() == 1);
  only.select = {"SL1"};  // per-trace rules only: no job rule runs, none says "not checked"
  const JobLintResult none = lint(job, only);
  CHECK(none.diagnostics.empty());
  CHECK(none.not_checked.empty());
  JobAnalysis one_rank = job;
  one_rank.not_checked = {"one rank: there is no other rank to compare it with"};
  LintConfig just_703;
  just_703.select = {"time-lost-at-collectives"};
  const JobLintResult reasons = lint(one_rank, just_703);
  REQUIRE(reasons.not_checked.size() == 1);
  CHECK(reasons.not_checked[0].code == "SL703");
}

TEST_CASE("job rules: the built-in registry knows their codes and names for selectors (#14)") {
  steplint::analyzer::RuleRegistry registry;
  steplint::rules::registerBuiltinRules(registry);
  REQUIRE(registry.apartRuleInfos().size() == 4);  // SL701-SL703, then the gate's SL801
  CHECK(registry.apartRuleInfos()[0].code == "SL701");
  CHECK(registry.apartRuleInfos()[2].name == "time-lost-at-collectives");
  CHECK(registry.apartRuleInfos()[3].code == "SL801");
  LintConfig config;
  config.select = {"SL701", "load-imbalance", "SL801", "SL8", "step-time-regression"};
  CHECK(validateSelectors(config, registry).empty());
  config.select = {"SL81"};  // not a category, and no rule starts with it: a typo
  CHECK(validateSelectors(config, registry).size() == 1);
}

namespace {

/// Rank 0's own lint as one trace sees it: SL503 claims most of 204.5 ms of exposed
/// communication, SL101 its DataLoader wait; fix-all is their sum.
LintResult waitingRankLint() {
  LintResult lint;
  lint.source = "rank0";
  Diagnostic sl101;
  sl101.code = "SL101";
  sl101.saving = {76.6, 76.6 / 300, "DataLoader wait", -1, 76.6};
  Diagnostic sl503;
  sl503.code = "SL503";
  sl503.message =
      "communication not overlapped with computation takes 68.2% of the step; one rank of 4: its "
      "wait inside collectives for slower ranks counts here too (steplint check on all ranks' "
      "traces measures it apart)";
  sl503.evidence.metrics = {{"exposed_communication_ms_per_step", 204.5}};
  sl503.saving = {150.0, 0.5, "the collectives hidden", 100.0, 204.5};
  lint.diagnostics = {sl101, sl503};
  lint.saving_all.per_step_ms = 226.6;
  lint.saving_all.low_ms = 176.6;
  lint.saving_all.step_ms = 300;
  lint.saving_all.fraction_of_step = 226.6 / 300;
  return lint;
}

}  // namespace

TEST_CASE(
    "a waiting rank's SL503 keeps only the communication that is not waiting for the straggler "
    "(#14)") {
  JobAnalysis job = makeJob([](int) { return 1; }, 200.0, LateCause::kInputPipeline);
  job.ranks[0].wait_ns = 201.3e6;
  LintResult lint = waitingRankLint();
  steplint::rules::scopeRankFindings(job, lint);
  const Diagnostic& sl503 = lint.diagnostics[1];
  INFO(sl503.message);
  CHECK(sl503.message ==
        "communication not overlapped with computation takes 68.2% of the step; 201.3 ms/step of "
        "it is waiting for rank 1 (SL701), which only that rank's fix removes");
  CHECK(sl503.saving.per_step_ms == Approx(3.2));  // 204.5 - 201.3: the transfer itself
  CHECK(sl503.saving.low_ms == -1);                // 100 capped to 3.2 too: no range left
  CHECK(sl503.saving.alone_ms == Approx(3.2));
  CHECK(sl503.saving.fraction_of_step == Approx(3.2 / 300));
  CHECK(lint.diagnostics[0].saving.per_step_ms == Approx(76.6));  // its own DataLoader: kept
  // Fix-all loses what SL503 lost, so the shares still add up to it.
  CHECK(lint.saving_all.per_step_ms == Approx(76.6 + 3.2));
  CHECK(lint.saving_all.low_ms == -1);
  CHECK(lint.saving_all.fraction_of_step == Approx((76.6 + 3.2) / 300));

  // A trace that is no rank of this job is left as it is.
  LintResult other = waitingRankLint();
  other.source = "elsewhere";
  steplint::rules::scopeRankFindings(job, other);
  CHECK(other.diagnostics[1].message == waitingRankLint().diagnostics[1].message);
  CHECK(other.diagnostics[1].saving.per_step_ms == Approx(150.0));
  CHECK(other.saving_all.per_step_ms == Approx(226.6));
  // The straggler waited for nobody: its saving stays, the caveat gives way to what the job saw.
  LintResult straggler = waitingRankLint();
  straggler.source = "rank1";
  steplint::rules::scopeRankFindings(job, straggler);
  CHECK(straggler.diagnostics[1].message ==
        "communication not overlapped with computation takes 68.2% of the step; the other ranks "
        "wait for this one (SL701)");
  CHECK(straggler.diagnostics[1].saving.per_step_ms == Approx(150.0));
  CHECK(straggler.saving_all.per_step_ms == Approx(226.6));
}

TEST_CASE("a waiting rank's SL502 speeds up only the transfers, not the wait (#14)") {
  JobAnalysis job = makeJob([](int) { return 1; }, 20.0, LateCause::kInputPipeline);
  job.ranks[0].wait_ns = 24e6;
  LintResult lint;
  lint.source = "rank0";
  Diagnostic sl502;
  sl502.code = "SL502";
  sl502.message =
      "DistributedDataParallel runs on GPUs without NCCL; 36.0 ms per step of "
      "communication is exposed";
  sl502.evidence.metrics = {{"exposed_communication_ms_per_step", 36.0}};
  sl502.saving = {9.0, 9.0 / 50, "gloo 4x faster", 8.6, 9.0};
  lint.diagnostics = {sl502};
  lint.saving_all.per_step_ms = 9.0;
  lint.saving_all.low_ms = 8.6;
  lint.saving_all.fraction_of_step = 9.0 / 50;
  lint.saving_all.step_ms = 50;
  steplint::rules::scopeRankFindings(job, lint);
  const Diagnostic& d = lint.diagnostics[0];
  INFO(d.message);
  CHECK(d.message.find("; 24.0 ms/step of it is waiting for rank 1 (SL701)") != std::string::npos);
  // 12 of the 36 ms are transfers: a third of the claimed speed-up is left.
  CHECK(d.saving.per_step_ms == Approx(3.0));
  CHECK(d.saving.low_ms == Approx(8.6 / 3));
  CHECK(d.evidence.metric("collective_wait_ms_per_step") == Approx(24.0));
  CHECK(lint.saving_all.per_step_ms == Approx(3.0));
  CHECK(lint.saving_all.low_ms == Approx(8.6 / 3));
  CHECK(lint.saving_all.fraction_of_step == Approx(3.0 / 50));
}
