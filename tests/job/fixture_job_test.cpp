// The two-rank NCCL fixture (HTA's nccl_parser_config: rank 0 of a world of 2): a job report
// with the missing rank said, its collectives read from the NCCL kernels.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "steplint/analyzer/job.h"
#include "steplint/trace/importer.h"

using namespace steplint;

TEST_CASE("fixture job: HTA's NCCL trace is rank 0 of 2, rank 1 missing") {
  const std::string path = test::requireFixture("hta/nccl_parser_config/nccl_data.json.gz");
  trace::TraceModel model;
  REQUIRE(trace::importTraceFile(path, model).ok());
  const analyzer::RankSummary rank = analyzer::summarizeRank(model, analyzer::summarize(model));
  CHECK(rank.rank == 0);
  CHECK(rank.world_size == 2);
  CHECK(rank.backend == "nccl");
  CHECK(rank.comm_source == "device kernels");
  REQUIRE_FALSE(rank.steps.empty());
  size_t allreduces = 0;
  for (const auto& s : rank.steps)
    for (const auto& c : s.collectives) allreduces += c.name == "allreduce";
  CHECK(allreduces > 0);
  // The kernels carry c10d's args (torch 2.2: a process group, no sequence number).
  REQUIRE(rank.groups.size() == 1);
  CHECK(rank.groups[0].name == "0");
  CHECK(rank.groups[0].description == "default_pg");
  CHECK(rank.groups[0].ranks == std::vector<int64_t>{0, 1});
  for (const auto& s : rank.steps)
    for (const auto& c : s.collectives) {
      CHECK(c.group == "0");
      CHECK(c.seq == -1);
      CHECK(c.nelems > 0);
    }
  std::vector<analyzer::RankSummary> ranks{rank};
  std::vector<std::string> warnings;
  const auto jobs = analyzer::groupJobs(std::move(ranks), warnings);
  REQUIRE(jobs.size() == 1);
  const analyzer::JobAnalysis job = analyzer::analyzeJob(jobs[0]);
  REQUIRE_FALSE(job.warnings.empty());
  CHECK(job.warnings[0].find("only 1 of 2 ranks") != std::string::npos);
  CHECK(job.warnings[0].find("missing: 1") != std::string::npos);
  REQUIRE_FALSE(job.not_checked.empty());
  CHECK(job.not_checked[0].find("one rank") != std::string::npos);
  CHECK(job.straggler == -1);
}
