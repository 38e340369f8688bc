// Two runs of a job compared (job_diff.h) on hand-built job analyses: the job's step and its
// parts, the rank the others waited for, rank by rank, and what differs between the runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "steplint/analyzer/job_diff.h"

using namespace steplint::analyzer;

namespace {

constexpr double kMs = 1e6;

// `ranks` ranks of 40 ms steps; `late` (-1: none) computes `extra` ms more and the others wait for
// it.
JobAnalysis makeJob(int64_t ranks, int64_t late, double extra_ms) {
  JobAnalysis job;
  job.identity = "world_size=" + std::to_string(ranks) + " backend=nccl";
  job.world_size = ranks;
  job.has_collectives = true;
  job.matched_collectives = 10;
  job.steps.resize(5);
  for (int64_t r = 0; r < ranks; ++r) {
    JobRank row;
    row.rank = r;
    row.step_ns = (40 + extra_ms) * kMs;
    row.compute_ns = (25 + (r == late ? extra_ms : 0)) * kMs;
    row.transfer_ns = 3 * kMs;
    row.wait_ns = (r == late ? 0.05 : extra_ms) * kMs;
    row.dataloader_ns = 4 * kMs;
    row.straggler_steps = r == late ? 5 : 0;
    job.ranks.push_back(row);
  }
  if (late >= 0)
    job.straggler = late, job.straggler_cause = LateCause::kGpuCompute, job.straggler_steps = 5;
  return job;
}

}  // namespace

TEST_CASE("job diff: the job's step, its parts and the rank the others waited for (#14)") {
  const JobDiff diff = diffJobs(makeJob(4, 3, 8), makeJob(4, -1, 0));
  CHECK(diff.base.step_ns == Approx(48 * kMs));
  CHECK(diff.next.step_ns == Approx(40 * kMs));
  CHECK(diff.step_delta_ns == Approx(-8 * kMs));
  CHECK(diff.base.parts[0] == Approx(27 * kMs));  // compute: one rank of four 8 ms longer
  CHECK(diff.base.parts[2] == Approx((3 * 8 + 0.05) / 4 * kMs));  // comm wait
  CHECK(diff.base.slowest_rank == 3);
  CHECK(diff.base.slowest_late_ns == Approx(7.95 * kMs));
  CHECK(diff.base.straggler == 3);
  CHECK(diff.next.straggler == -1);
  REQUIRE(diff.ranks.size() == 4);
  CHECK(diff.ranks[3].base_parts[0] - diff.ranks[3].new_parts[0] == Approx(8 * kMs));
  CHECK(diff.ranks[3].base_late_steps == 5);
  CHECK(diff.notes.empty());

  std::ostringstream text;
  printJobDiffText(text, diff);
  INFO(text.str());
  CHECK(
      text.str().find(
          "Job step time: 48.000 → 40.000 ms/step (-8.000 ms, -16.7%): comm wait -6.013, compute -2.000") !=
      std::string::npos);
  CHECK(
      text.str().find(
          "Slowest rank: rank 3 (the others waited 7.950 ms/step for it; straggler rank 3 in 5 of 5 "
          "steps, cause: GPU compute)") != std::string::npos);
  const nlohmann::json j = jobDiffToJson(diff);
  CHECK(j["schema"] == "steplint.jobdiff/1");
  CHECK(j["step_delta_ms"].get<double>() == Approx(-8));
  CHECK(j["base"]["straggler"]["rank"] == 3);
  CHECK(j["new"]["straggler"].is_null());
  CHECK(j["ranks"][3]["base"]["compute_ms"].get<double>() == Approx(33));
}

TEST_CASE("job diff: ranks in one run only and different worlds are said (#14)") {
  JobAnalysis one = makeJob(1, -1, 0);
  one.has_collectives = false;
  one.not_checked = {"one rank: there is no other rank to compare it with"};
  const JobDiff diff = diffJobs(makeJob(4, -1, 0), one);
  CHECK(diff.next.slowest_rank == -1);
  REQUIRE(diff.ranks.size() == 4);
  CHECK_FALSE(diff.ranks[2].in_new);
  REQUIRE(diff.notes.size() == 3);
  CHECK(diff.notes[0] ==
        "the world sizes differ (4 → 1): the job means compare different numbers of ranks");
  CHECK(diff.notes[1] == "rank(s) 1, 2, 3 only in the base run");
  CHECK(diff.notes[2].find("the new run's ranks could not be compared: one rank") !=
        std::string::npos);
  std::ostringstream md;
  printJobDiffMarkdown(md, diff, 2);
  INFO(md.str());
  CHECK(md.str().find("## steplint diff (job)") != std::string::npos);
  CHECK(md.str().find("... 2 more ranks (--top 0 shows all)") != std::string::npos);
  CHECK(md.str().find("| 1 | 40.000 → - | - |") != std::string::npos);
}

namespace {

// The job's step in each of its steps (each step's median rank), in ms.
JobAnalysis withSteps(JobAnalysis job, const std::vector<double>& step_ms) {
  job.steps.clear();
  std::vector<double> sorted = step_ms;
  for (size_t i = 0; i < step_ms.size(); ++i) {
    JobStep step;
    step.number = static_cast<int64_t>(i);
    step.median_step_ns = static_cast<int64_t>(step_ms[i] * kMs);
    job.steps.push_back(step);
  }
  std::sort(sorted.begin(), sorted.end());
  job.median_step_ns = sorted[sorted.size() / 2] * kMs;
  return job;
}

}  // namespace

TEST_CASE("job diff: the job's step change is tested against the step-to-step noise") {
  const std::vector<double> base = {40.1, 39.8, 40.3, 40.0, 39.9, 40.2, 40.1, 39.7};
  SECTION("every step slower: significant") {
    const JobDiff diff =
        diffJobs(withSteps(makeJob(4, -1, 0), base),
                 withSteps(makeJob(4, -1, 2), {42.2, 41.9, 42.0, 42.3, 41.8, 42.1, 42.0, 42.2}));
    REQUIRE(diff.step_test.tested);
    CHECK(diff.step_test.significant);
    CHECK(diff.step_test.p_value < 0.001);
    std::ostringstream text;
    printJobDiffText(text, diff);
    INFO(text.str());
    CHECK(text.str().find("(+2.000 ms, +5.0%; significant given the per-step spread "
                          "(Mann-Whitney p < 0.001 over 8 and 8 steps))") != std::string::npos);
    const nlohmann::json j = jobDiffToJson(diff);
    CHECK(j["step_change"]["significant"] == true);
    CHECK(j["step_change"]["median_delta_ms"].get<double>() == Approx(2.0).margin(1e-9));
    CHECK(j["new"]["median_step_ms"].get<double>() == Approx(42.1).margin(1e-9));
  }
  SECTION("one stalled step moves the mean, not the steps: not significant, median beside it") {
    JobAnalysis next =
        withSteps(makeJob(4, -1, 0), {40.0, 39.9, 40.2, 40.1, 39.8, 40.3, 40.0, 119.9});
    next.ranks[0].step_ns = next.ranks[1].step_ns = next.ranks[2].step_ns = next.ranks[3].step_ns =
        50 * kMs;
    const JobDiff diff = diffJobs(withSteps(makeJob(4, -1, 0), base), next);
    REQUIRE(diff.step_test.tested);
    CHECK_FALSE(diff.step_test.significant);
    CHECK(diff.step_test.p_value > 0.05);
    std::ostringstream text;
    printJobDiffText(text, diff);
    INFO(text.str());
    CHECK(text.str().find("(+10.000 ms, +25.0% mean; not significant given the per-step spread "
                          "(Mann-Whitney p = ") != std::string::npos);
    CHECK(text.str().find("over 8 and 8 steps); median +0.0%)") != std::string::npos);
    const nlohmann::json j = jobDiffToJson(diff);
    CHECK(j["step_change"]["tested"] == true);
    CHECK(j["step_change"]["significant"] == false);
  }
  SECTION("too few steps: said, not tested") {
    const JobDiff diff = diffJobs(withSteps(makeJob(4, -1, 0), {40, 40.2, 39.9}),
                                  withSteps(makeJob(4, -1, 2), {42, 42.1, 41.9}));
    CHECK_FALSE(diff.step_test.tested);
    CHECK(diff.step_test.text.find("too few steps") == 0);
    CHECK(jobDiffToJson(diff)["step_change"]["p_value"].is_null());
  }
}

TEST_CASE("job diff: the job rules' findings of both runs, matched by fingerprint") {
  JobDiff diff = diffJobs(makeJob(4, 3, 8), makeJob(4, -1, 0));
  CHECK_FALSE(diff.findings_compared);
  Diagnostic straggler;
  straggler.code = "SL701";
  straggler.name = "straggler-rank";
  straggler.message = "rank 3 keeps the other 3 rank(s) waiting";
  straggler.fingerprint_key = "rank3";
  straggler.evidence.metrics = {{"saving_ms_per_step", 8.0}};
  compareJobFindings(diff, {straggler}, {});
  REQUIRE(diff.findings_compared);
  REQUIRE(diff.findings.size() == 1);
  CHECK(diff.findings[0].change == FindingChange::kFixed);
  CHECK(diff.findings[0].base.magnitude == Approx(8.0));
  std::ostringstream text;
  printJobDiffText(text, diff);
  CHECK(text.str().find("fixed   SL701 straggler-rank") != std::string::npos);
  const nlohmann::json j = jobDiffToJson(diff);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["change"] == "fixed");
  CHECK(j["findings"][0]["new"].is_null());
  // Without the rules (--no-findings): null, and the text says so.
  const JobDiff plain = diffJobs(makeJob(4, 3, 8), makeJob(4, -1, 0));
  CHECK(jobDiffToJson(plain)["findings"].is_null());
}
