// Synthetic jobs with a planted straggler (bench/tracegen/job_synth.h): the job analysis must
// name the planted rank and cause, with NCCL- and gloo-style collectives, and name no one in a
// balanced job. Ranks are written in clocks milliseconds apart, so clock alignment cannot help.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "steplint/analyzer/job.h"
#include "steplint/trace/importer.h"
#include "tracegen/job_synth.h"

using namespace steplint;
using bench::CollectiveArgs;
using bench::CollectiveStyle;
using bench::PlantedStraggler;

namespace {

std::vector<analyzer::RankSummary> summarizeJob(const bench::JobSynthOptions& options, int steps) {
  bench::JobSynthesizer synth(options);
  std::vector<std::string> text;
  synth.begin(text);
  for (int n = 1; n <= steps; ++n) synth.step(n, text);
  synth.end(text);
  std::vector<analyzer::RankSummary> ranks;
  for (size_t r = 0; r < text.size(); ++r) {
    trace::TraceModel model;
    const auto status = trace::importTraceBytes(text[r], model);
    INFO(status.message);
    REQUIRE(status.ok());
    model.metadata.source_path = "rank" + std::to_string(r) + ".pt.trace.json";
    ranks.push_back(analyzer::summarizeRank(model, analyzer::summarize(model)));
  }
  return ranks;
}

bench::JobSynthOptions plant(CollectiveStyle style, CollectiveArgs args, PlantedStraggler straggler,
                             int rank) {
  bench::JobSynthOptions options;
  options.style = style;
  options.collective_args = args;
  options.straggler = straggler;
  options.straggler_rank = rank;
  return options;
}

analyzer::JobAnalysis runJob(const bench::JobSynthOptions& options, int steps = 6) {
  std::vector<std::string> warnings;
  std::vector<analyzer::Job> jobs = analyzer::groupJobs(summarizeJob(options, steps), warnings);
  CHECK(warnings.empty());
  REQUIRE(jobs.size() == 1);
  return analyzer::analyzeJob(jobs[0]);
}

}  // namespace

TEST_CASE("planted job: each straggler is named with its cause, NCCL and gloo") {
  const auto style = GENERATE(CollectiveStyle::kNccl, CollectiveStyle::kGloo);
  struct Case {
    PlantedStraggler planted;
    int rank;
    analyzer::LateCause cause;
  };
  const auto c =
      GENERATE(Case{PlantedStraggler::kBackward, 2, analyzer::LateCause::kGpuCompute},
               Case{PlantedStraggler::kDataLoader, 1, analyzer::LateCause::kInputPipeline},
               Case{PlantedStraggler::kHostSync, 3, analyzer::LateCause::kHostSync});
  bench::JobSynthOptions options;
  options.style = style;
  options.straggler = c.planted;
  options.straggler_rank = c.rank;
  INFO("planted " << bench::plantedStragglerName(c.planted) << " on rank " << c.rank << ", "
                  << (style == CollectiveStyle::kNccl ? "nccl" : "gloo"));
  const analyzer::JobAnalysis job = runJob(options);
  for (const std::string& w : job.warnings) UNSCOPED_INFO("warning: " << w);
  REQUIRE(job.steps.size() == 6);
  CHECK(job.matched_collectives == 12);  // a broadcast and an all-reduce per step
  CHECK(job.straggler == c.rank);
  CHECK(job.straggler_cause == c.cause);
  CHECK(job.straggler_steps == 6);
  if (c.planted == PlantedStraggler::kBackward) {
    CHECK(job.mean_late_ns == Approx(8e6).epsilon(0.05));
    REQUIRE(!job.steps[0].grown_kernels.empty());
    CHECK(job.steps[0].grown_kernels[0].name == "ampere_sgemm_128x64_nt");
  }
  if (c.planted == PlantedStraggler::kDataLoader)
    CHECK(job.mean_late_ns == Approx(12e6).epsilon(0.05));
  // The waiting ranks wait about as long as the straggler is late; the straggler hardly waits.
  for (const analyzer::JobRank& r : job.ranks) {
    if (r.rank == c.rank)
      CHECK(r.wait_ns < 0.1 * job.mean_late_ns);
    else
      CHECK(r.wait_ns > 0.8 * job.mean_late_ns);
  }
}

TEST_CASE("planted job: a balanced job has no straggler") {
  const auto style = GENERATE(CollectiveStyle::kNccl, CollectiveStyle::kGloo);
  bench::JobSynthOptions options;
  options.style = style;
  options.ranks = 8;
  const analyzer::JobAnalysis job = runJob(options);
  CHECK(job.straggler == -1);
  for (const analyzer::JobStep& s : job.steps) CHECK(s.straggler == -1);
  CHECK(job.matched_collectives == 12);
  CHECK(job.mean_wait_ns < 0.02 * job.median_step_ns);
}

TEST_CASE("planted job: without distributedInfo the ranks come from the file names") {
  bench::JobSynthOptions options;
  options.distributed_info = false;
  options.straggler = PlantedStraggler::kBackward;
  options.straggler_rank = 0;
  bench::JobSynthesizer synth(options);
  std::vector<std::string> text;
  synth.begin(text);
  for (int n = 1; n <= 4; ++n) synth.step(n, text);
  synth.end(text);
  std::vector<analyzer::RankSummary> ranks;
  for (size_t r = 0; r < text.size(); ++r) {
    trace::TraceModel model;
    REQUIRE(trace::importTraceBytes(text[r], model).ok());
    CHECK_FALSE(model.metadata.distributed.present);
    model.metadata.source_path = "/runs/a/rank" + std::to_string(r) + ".1700000000.pt.trace.json";
    ranks.push_back(analyzer::summarizeRank(model, analyzer::summarize(model)));
  }
  std::vector<std::string> warnings;
  const auto jobs = analyzer::groupJobs(std::move(ranks), warnings);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].warnings.size() == 4);  // one "rank taken from the file name" per trace
  CHECK(analyzer::analyzeJob(jobs[0]).straggler == 0);
}

TEST_CASE(
    "planted job: collectives matched by process group and sequence number where the args have them (#14)") {
  const auto style = GENERATE(CollectiveStyle::kNccl, CollectiveStyle::kGloo);
  INFO((style == CollectiveStyle::kNccl ? "nccl" : "gloo"));
  const std::vector<analyzer::RankSummary> ranks =
      summarizeJob(plant(style, CollectiveArgs::kSeq, PlantedStraggler::kBackward, 2), 6);
  // What each rank keeps: the group and its members, and per call its seq and size.
  const analyzer::RankSummary& rank = ranks[1];
  REQUIRE(rank.groups.size() == 1);
  CHECK(rank.groups[0].name == "0");
  CHECK(rank.groups[0].description == "default_pg");
  CHECK(rank.groups[0].ranks == std::vector<int64_t>{0, 1, 2, 3});
  REQUIRE(rank.steps.size() == 6);
  REQUIRE(rank.steps[2].collectives.size() == 2);
  const analyzer::RankCollective& allreduce = rank.steps[2].collectives[1];
  CHECK(allreduce.group == "0");
  CHECK(allreduce.name == "allreduce");
  CHECK(allreduce.seq == 6);  // two calls per step, numbered from 1
  CHECK(allreduce.nelems == 6637568);

  std::vector<std::string> warnings;
  const auto jobs = analyzer::groupJobs(ranks, warnings);
  REQUIRE(jobs.size() == 1);
  const analyzer::JobAnalysis job = analyzer::analyzeJob(jobs[0]);
  CHECK(job.matched_collectives == 12);
  CHECK(job.matched_by_seq == 12);
  CHECK(analyzer::collectiveMatching(job) == "process group and sequence number");
  CHECK(job.straggler == 2);
  CHECK(job.straggler_cause == analyzer::LateCause::kGpuCompute);
  CHECK(job.mean_late_ns == Approx(8e6).epsilon(0.05));
}

TEST_CASE(
    "planted job: the process group without a sequence number still names the group, matched by order (#14)") {
  // torch < 2.3 (and HTA's NCCL fixture): args without "Seq"; here only on record_param_comms,
  // so a kernel finds them through its launch call and the op around it.
  const auto style = GENERATE(CollectiveStyle::kNccl, CollectiveStyle::kGloo);
  const std::vector<analyzer::RankSummary> ranks =
      summarizeJob(plant(style, CollectiveArgs::kGroup, PlantedStraggler::kDataLoader, 0), 4);
  for (const analyzer::RankCollective& c : ranks[3].steps[1].collectives) {
    CHECK(c.group == "0");
    CHECK(c.seq == -1);
  }
  CHECK(ranks[3].steps[1].collectives[0].nelems == 53120);
  std::vector<std::string> warnings;
  const auto jobs = analyzer::groupJobs(ranks, warnings);
  const analyzer::JobAnalysis job = analyzer::analyzeJob(jobs.at(0));
  CHECK(job.matched_collectives == 8);
  CHECK(job.matched_by_seq == 0);
  CHECK(analyzer::collectiveMatching(job) == "order within each process group");
  CHECK(job.straggler == 0);
  CHECK(job.straggler_cause == analyzer::LateCause::kInputPipeline);
}
