// Real 4-rank DDP jobs recorded on a GPU machine (tests/data/gpu_ddp/README.md): torch.profiler
// traces of samples/python/ddp_straggler_train.py, one rank slowed on purpose. Each planted
// cause must be named with the right rank; the balanced job must name none.
#include <catch2/catch.hpp>

#include <filesystem>

#include "fixtures.h"
#include "steplint/analyzer/job.h"
#include "steplint/trace/importer.h"

using namespace steplint;

namespace {

analyzer::JobAnalysis analyzeFolder(const std::string& name) {
  std::vector<analyzer::RankSummary> ranks;
  for (int rank = 0; rank < 4; ++rank) {
    const std::string path = test::testDataPath("gpu_ddp/" + name + "/rank" + std::to_string(rank) +
                                                ".pt.trace.json.gz");
    trace::TraceModel model;
    REQUIRE(trace::importTraceFile(path, model).ok());
    ranks.push_back(analyzer::summarizeRank(model, analyzer::summarize(model)));
    CHECK(ranks.back().rank == rank);
    CHECK(ranks.back().world_size == 4);
    CHECK(ranks.back().backend == "gloo");
  }
  std::vector<std::string> warnings;
  const auto jobs = analyzer::groupJobs(std::move(ranks), warnings);
  REQUIRE(jobs.size() == 1);
  return analyzer::analyzeJob(jobs[0]);
}

}  // namespace

TEST_CASE(
    "gpu ddp job: a rank with a 4x slower input pipeline is the straggler, cause input pipeline") {
  const analyzer::JobAnalysis job = analyzeFolder("dataloader");
  CHECK(job.has_collectives);
  REQUIRE(job.steps.size() == 10);  // the profiler's 10 active steps
  CHECK(job.straggler == 2);
  CHECK(job.straggler_cause == analyzer::LateCause::kInputPipeline);
  CHECK(job.straggler_steps >= 9);
  // 64 samples x 0.05 ms x (4 - 1) is 9.6 ms of extra decoding; Python and the sampler add more.
  CHECK(job.mean_late_ns > 9.6e6);
  CHECK(job.mean_late_ns < 40e6);
}

TEST_CASE("gpu ddp job: a rank that syncs after every layer is the straggler, cause host syncs") {
  const analyzer::JobAnalysis job = analyzeFolder("sync");
  CHECK(job.straggler == 2);
  CHECK(job.straggler_cause == analyzer::LateCause::kHostSync);
  CHECK(job.straggler_steps >= 5);  // of 10: late by more than the noise threshold
  // Gloo runs a step's two all-reduces on two worker threads at once: their time counts once
  // (summed, 47.7 ms of communication in a 44.4 ms step).
  for (const analyzer::JobRank& r : job.ranks) {
    INFO("rank " << r.rank);
    CHECK(r.transfer_ns + r.wait_ns <= r.step_ns);
    CHECK(r.transfer_ns > 0.5 * r.step_ns);  // gloo copies through host memory: most of it
  }
}

TEST_CASE("gpu ddp job: a balanced job has no straggler") {
  const analyzer::JobAnalysis job = analyzeFolder("balanced");
  CHECK(job.has_collectives);
  CHECK(job.straggler == -1);
}

TEST_CASE(
    "gpu ddp job: extra backward compute on one rank of four sharing one GPU shows in the ranks table") {
  // Every rank's kernels run on the same GPU, so rank 2's extra products delay all ranks alike:
  // nobody waits for rank 2 at the all-reduce and no straggler is named, but its compute is
  // many times the others'.
  const analyzer::JobAnalysis job = analyzeFolder("backward_shared_gpu");
  REQUIRE(job.ranks.size() == 4);
  for (const analyzer::JobRank& r : job.ranks)
    if (r.rank != 2) CHECK(job.ranks[2].compute_ns > 8 * r.compute_ns);
  CHECK(job.straggler == -1);
}
