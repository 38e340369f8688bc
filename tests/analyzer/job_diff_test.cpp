// Two runs of a job compared (job_diff.h) on hand-built job analyses: the job's step and its
// parts, the rank the others waited for, rank by rank, and what differs between the runs.
#include <catch2/catch.hpp>

#include <sstream>

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
