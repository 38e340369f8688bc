// The whole-job analysis (rank_summary.h, job.h): rank summaries from hand-built traces, and
// the cross-rank comparison on hand-built summaries with a known straggler.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/analyzer/summary.h"
#include "test_model.h"

using namespace steplint::analyzer;
using steplint::test::TestTrace;

namespace {

constexpr int64_t kMsNs = 1'000'000;

// One step of one rank: `extra` ms more of one part, and the allreduce that waited `wait` ms.
RankStep makeStep(int64_t number, int64_t compute_ms, int64_t loader_ms, int64_t sync_ms,
                  int64_t wait_ms) {
  RankStep s;
  s.number = number;
  s.compute_ns = compute_ms * kMsNs;
  s.dataloader_ns = loader_ms * kMsNs;
  s.sync_ns = sync_ms * kMsNs;
  s.host_work_ns = 1 * kMsNs;
  s.step_ns = 60 * kMsNs;
  s.collectives.push_back({"default", 0, "broadcast", 100'000});
  s.collectives.push_back({"default", 1, "allreduce", (3 + wait_ms) * kMsNs});
  s.top_kernels = {{"gemm_fwd", 20 * kMsNs}, {"gemm_bwd", (compute_ms - 20) * kMsNs}};
  return s;
}

RankSummary makeRank(int64_t rank, int64_t world) {
  RankSummary r;
  r.rank = rank;
  r.world_size = world;
  r.backend = "nccl";
  r.source = "rank" + std::to_string(rank) + ".json";
  return r;
}

// Four ranks; rank `slow` does `extra` ms more of the part `which` (0 compute, 1 DataLoader,
// 2 syncs) and so the three others wait `extra` ms in the allreduce.
Job plantedJob(int64_t slow, int which, int64_t extra, int steps = 5) {
  Job job;
  job.identity = "world_size=4 backend=nccl";
  job.world_size = 4;
  for (int64_t r = 0; r < 4; ++r) {
    RankSummary rank = makeRank(r, 4);
    for (int n = 0; n < steps; ++n) {
      const bool late = r == slow;
      rank.steps.push_back(makeStep(10 + n, 40 + (late && which == 0 ? extra : 0),
                                    5 + (late && which == 1 ? extra : 0),
                                    2 + (late && which == 2 ? extra : 0), late ? 0 : extra));
    }
    job.ranks.push_back(std::move(rank));
  }
  return job;
}

}  // namespace

TEST_CASE("job: collective kinds from NCCL kernels and c10d ranges") {
  CHECK(collectiveKind(
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)") ==
        "allreduce");
  CHECK(collectiveKind("ncclDevKernel_AllGather_RING_LL") == "allgather");
  CHECK(collectiveKind("nccl:all_reduce") == "allreduce");
  CHECK(collectiveKind("gloo:all_reduce") == "allreduce");
  CHECK(collectiveKind("nccl:_all_gather_base") == "allgather");
  CHECK(collectiveKind("aten::mm") == "");
  CHECK(collectiveKind("record_param_comms") == "");
}

TEST_CASE("job: rank from file names") {
  CHECK(rankFromFileName("/runs/job/rank3.1700000000.pt.trace.json.gz") == 3);
  CHECK(rankFromFileName("trace_rank_12.json") == 12);
  CHECK(rankFromFileName("host-a_worker7.pt.trace.json") == 7);
  CHECK(rankFromFileName("/rank9/trace.json") == -1);  // only the file name counts
  CHECK(rankFromFileName("trace.json") == -1);
}

TEST_CASE("job: a backward-compute straggler is named with the kernels that grew") {
  const JobAnalysis job = analyzeJob(plantedJob(2, 0, 8));
  REQUIRE(job.steps.size() == 5);
  CHECK(job.matched_collectives == 10);
  CHECK(job.straggler == 2);
  CHECK(job.straggler_cause == LateCause::kGpuCompute);
  CHECK(job.straggler_steps == 5);
  CHECK(job.mean_late_ns == Approx(8e6));
  for (const JobStep& s : job.steps) {
    CHECK(s.straggler == 2);
    CHECK(s.late_ns == 8 * kMsNs);
    CHECK(s.cause_excess_ns == 8 * kMsNs);
    REQUIRE(!s.grown_kernels.empty());
    CHECK(s.grown_kernels.front().name == "gemm_bwd");
    CHECK(s.grown_kernels.front().ns == 8 * kMsNs);
  }
  // The per-rank table: transfer is the shortest duration, wait the rest.
  REQUIRE(job.ranks.size() == 4);
  CHECK(job.ranks[0].transfer_ns == Approx(3.1e6));
  CHECK(job.ranks[0].wait_ns == Approx(8e6));
  CHECK(job.ranks[2].wait_ns == Approx(0));
  CHECK(job.ranks[2].straggler_steps == 5);
  CHECK(job.mean_wait_ns == Approx(6e6));  // three ranks wait 8 ms, one 0
  CHECK(job.not_checked.empty());
}

TEST_CASE("job: DataLoader and host-sync stragglers get their own cause") {
  const JobAnalysis loader = analyzeJob(plantedJob(1, 1, 15));
  CHECK(loader.straggler == 1);
  CHECK(loader.straggler_cause == LateCause::kInputPipeline);
  CHECK(loader.steps.front().grown_kernels.empty());
  const JobAnalysis sync = analyzeJob(plantedJob(3, 2, 4));
  CHECK(sync.straggler == 3);
  CHECK(sync.straggler_cause == LateCause::kHostSync);
}

TEST_CASE("job: a few percent of noise between ranks is no straggler") {
  // 1 ms of extra compute and wait on a 60 ms step: under the 5 % threshold (3 ms).
  const JobAnalysis job = analyzeJob(plantedJob(0, 0, 1));
  CHECK(job.straggler == -1);
  for (const JobStep& s : job.steps) CHECK(s.straggler == -1);
  CHECK(job.has_collectives);
}

TEST_CASE("job: a rank late once is not the job's straggler") {
  Job job = plantedJob(0, 0, 0);
  job.ranks[1].steps[2] = makeStep(12, 50, 5, 2, 0);
  for (size_t r : {0u, 2u, 3u}) job.ranks[r].steps[2].collectives[1].dur_ns += 10 * kMsNs;
  const JobAnalysis result = analyzeJob(job);
  CHECK(result.steps[2].straggler == 1);
  CHECK(result.straggler == -1);
}

TEST_CASE("job: many missing ranks are listed up to 16, then counted") {
  Job job = plantedJob(2, 0, 8);  // ranks 0-3
  job.world_size = 40;
  const JobAnalysis result = analyzeJob(job);
  REQUIRE_FALSE(result.warnings.empty());
  CHECK(result.warnings[0].find("only 4 of 40 ranks have a trace (missing: 4, 5, 6, 7, 8, 9, 10, "
                                "11, 12, 13, 14, 15, 16, 17, 18, 19 and 20 more)") !=
        std::string::npos);
  job.world_size = int64_t{1} << 60;  // from a file: counted, not walked
  CHECK(analyzeJob(job).warnings[0].find("and 1152921504606846956 more") != std::string::npos);
}

TEST_CASE("job: missing ranks, different steps and different collectives are warnings") {
  Job job = plantedJob(2, 0, 8);
  job.ranks.erase(job.ranks.begin() + 3);  // rank 3 missing
  job.ranks[0].steps.pop_back();           // step 14 only on ranks 1 and 2
  job.ranks[1].steps[0].collectives[1].name = "allgather";
  const JobAnalysis result = analyzeJob(job);
  CHECK(result.steps.size() == 4);
  CHECK(result.matched_collectives == 7);  // step 10 stops at the differing collective
  REQUIRE(result.warnings.size() == 3);
  CHECK(result.warnings[0].find("missing: 3") != std::string::npos);
  CHECK(result.warnings[1].find("not recorded on every rank (14)") != std::string::npos);
  CHECK(result.warnings[2].find("differs between ranks") != std::string::npos);
  CHECK(result.straggler == 2);
}

TEST_CASE("job: a step one rank repeats and another lacks is not compared, no crash") {
  // A hand-merged summary file: rank 0 has step 12 twice, rank 1 none. Counting rows made
  // step 12 look recorded on all four ranks and the comparison read past rank 1's steps.
  Job job = plantedJob(2, 0, 8);
  job.ranks[0].steps.push_back(job.ranks[0].steps[2]);
  job.ranks[1].steps.erase(job.ranks[1].steps.begin() + 2);
  const JobAnalysis result = analyzeJob(job);
  CHECK(result.steps.size() == 4);
  for (const JobStep& step : result.steps) CHECK(step.number != 12);
  REQUIRE(result.warnings.size() == 2);
  CHECK(result.warnings[0].find("rank 0 has 1 repeated step number(s)") != std::string::npos);
  CHECK(result.warnings[1].find("not recorded on every rank (12)") != std::string::npos);
  CHECK(result.straggler == 2);
}

TEST_CASE("job: a rank number outside world_size is said, and the rank it hides is missing") {
  Job job = plantedJob(2, 0, 8);
  job.ranks[3].rank = 9;  // rank 3's file claims rank 9 of 4
  const JobAnalysis result = analyzeJob(job);
  REQUIRE(result.warnings.size() >= 2);
  CHECK(result.warnings[0] ==
        "rank3.json: rank 9 is outside the job's world_size 4; compared "
        "with the others all the same");
  CHECK(result.warnings[1].find("only 3 of 4 ranks have a trace (missing: 3)") !=
        std::string::npos);
  CHECK(result.straggler == 2);
}

TEST_CASE("job: two ranks slow together are named together, not one by a tie-break") {
  // Ranks 2 and 3 both load 8 ms longer; the others wait for whichever arrives last, which
  // alternates by a hair: counting only the last one named rank 2 in half the steps.
  Job job = plantedJob(2, 1, 8, 6);
  job.ranks[3].steps = job.ranks[2].steps;
  for (size_t i = 0; i < job.ranks[3].steps.size(); i += 2)
    job.ranks[3].steps[i].collectives[1].dur_ns -= 50'000;  // rank 3 last in every other step
  const JobAnalysis result = analyzeJob(job);
  CHECK(result.straggler == 2);
  CHECK(result.late_together == std::vector<int64_t>{2, 3});
  CHECK(result.straggler_steps == 6);
  CHECK(result.stragglerText() == "ranks 2 and 3");
  CHECK(result.waitingRanks() == 2);
  CHECK(result.straggler_cause == LateCause::kInputPipeline);
  SECTION("one slow rank stays alone") {
    const JobAnalysis alone = analyzeJob(plantedJob(2, 1, 8, 6));
    CHECK(alone.late_together.empty());
    CHECK(alone.stragglerText() == "rank 2");
    CHECK(alone.waitingRanks() == 3);
  }
}

TEST_CASE("job: one rank or no collectives is not checked") {
  Job one = plantedJob(0, 0, 0);
  one.ranks.resize(1);
  CHECK(analyzeJob(one).not_checked.at(0).find("one rank") != std::string::npos);
  Job silent = plantedJob(0, 0, 0);
  for (RankSummary& r : silent.ranks)
    for (RankStep& s : r.steps) s.collectives.clear();
  const JobAnalysis result = analyzeJob(silent);
  CHECK(result.not_checked.at(0).find("no collectives") != std::string::npos);
  CHECK(result.straggler == -1);
}

TEST_CASE("job: grouping by distributedInfo, file names and duplicates") {
  std::vector<RankSummary> ranks;
  ranks.push_back(makeRank(1, 2));
  ranks.push_back(makeRank(0, 2));
  ranks.push_back(makeRank(0, 2));  // duplicate
  RankSummary named = makeRank(5, -1);
  named.rank_from_file_name = true;
  ranks.push_back(named);
  RankSummary nameless = makeRank(-1, -1);
  ranks.push_back(nameless);
  std::vector<std::string> warnings;
  const std::vector<Job> jobs = groupJobs(std::move(ranks), warnings);
  REQUIRE(jobs.size() == 2);
  const Job& job = jobs[1].identity == "world_size=2 backend=nccl" ? jobs[1] : jobs[0];
  REQUIRE(job.ranks.size() == 2);
  CHECK(job.ranks[0].rank == 0);
  CHECK(job.ranks[1].rank == 1);
  CHECK(job.warnings.at(0).find("appears twice") != std::string::npos);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].find("no distributedInfo and no rank") != std::string::npos);
  CHECK(warnings[1].find("2 different jobs") != std::string::npos);
}

TEST_CASE("job: a rank known only from its file name joins the one job that misses it") {
  // One trace re-saved without distributedInfo used to start a job of its own, and its
  // straggler vanished from the job it belongs to.
  std::vector<RankSummary> ranks;
  for (int64_t r : {0, 1, 3}) ranks.push_back(makeRank(r, 4));
  RankSummary named = makeRank(2, -1);
  named.rank_from_file_name = true;
  ranks.insert(ranks.begin(), named);  // first in the list: the job is not known yet
  std::vector<std::string> warnings;
  std::vector<Job> jobs = groupJobs(ranks, warnings);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].identity == "world_size=4 backend=nccl");
  REQUIRE(jobs[0].ranks.size() == 4);
  CHECK(jobs[0].ranks[2].rank == 2);
  REQUIRE(jobs[0].warnings.size() == 1);
  CHECK(jobs[0].warnings[0].find("rank 2 taken from the file name, the rank this job misses") !=
        std::string::npos);
  CHECK(warnings.empty());
  SECTION("a rank the job already has stays apart") {
    ranks.push_back(makeRank(2, 4));
    jobs = groupJobs(ranks, warnings);
    CHECK(jobs.size() == 2);
  }
}

// Two steps, each: 10 ms of compute kernels, an NCCL allreduce kernel, a broadcast in step 1.
TEST_CASE("job: a rank summary from a trace, collectives and kernels per step") {
  TestTrace t;
  double at = 0;
  for (int n = 1; n <= 3; ++n) {
    t.step(n, at, 20000);
    t.launch(at + 100, 10, at + 200, 6000, "gemm_fwd");
    t.launch(at + 200, 10, at + 6300, 4000, "gemm_bwd");
    t.launch(at + 300, 10, at + 10400, 3000, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    if (n == 2)
      t.launch(at + 400, 10, at + 13500, 500, "ncclKernel_Broadcast_RING_LL_Sum_int8_t(x)");
    t.annotation("nccl:all_reduce", at + 300, 20);
    at += 20000;
  }
  t.finalize();
  t.model.metadata.distributed.present = true;
  t.model.metadata.distributed.rank = 3;
  t.model.metadata.distributed.world_size = 8;
  SummaryOptions options;
  options.steps.drop_incomplete_tail = false;
  const TraceSummary summary = summarize(t.model, options);
  const RankSummary rank = summarizeRank(t.model, summary);
  CHECK(rank.rank == 3);
  CHECK(rank.world_size == 8);
  CHECK(rank.comm_source == "device kernels");
  REQUIRE(rank.steps.size() == 3);
  const RankStep& s = rank.steps[1];
  CHECK(s.number == 2);
  CHECK(s.compute_ns == 10'000'000);
  REQUIRE(s.collectives.size() == 2);
  CHECK(s.collectives[0].name == "allreduce");
  CHECK(s.collectives[0].dur_ns == 3'000'000);
  CHECK(s.collectives[1].name == "broadcast");
  CHECK(s.collectives[1].index == 1);
  CHECK(s.comm_ns == 3'500'000);
  REQUIRE(s.top_kernels.size() == 2);
  CHECK(s.top_kernels[0].name == "gemm_fwd");
  CHECK(s.top_kernels[0].ns == 6'000'000);
  CHECK(rank.steps[0].collectives.size() == 1);
}

TEST_CASE("job: a rank summary reads c10d's args through the launch and the enclosing op (#14)") {
  TestTrace t;
  t.step(1, 0, 20000);
  t.collectiveArgs(t.op("record_param_comms", 300, 50), "allreduce", "1", 7, "[0, 2]", 4096);
  t.annotation("nccl:all_reduce", 305, 30);
  t.launch(310, 10, 10400, 3000, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  t.launch(400, 10, 13500, 500,
           "ncclKernel_Broadcast_RING_LL_Sum_int8_t(x)");  // no args: group "default"
  t.finalize();
  SummaryOptions options;
  options.steps.drop_incomplete_tail = false;
  const RankSummary rank = summarizeRank(t.model, summarize(t.model, options));
  REQUIRE(rank.steps.size() == 1);
  const auto& calls = rank.steps[0].collectives;
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].group == "1");
  CHECK(calls[0].seq == 7);
  CHECK(calls[0].nelems == 4096);
  CHECK(calls[0].index == 0);
  CHECK(calls[1].group == "default");
  CHECK(calls[1].seq == -1);
  CHECK(calls[1].index == 0);  // first of its own group
  REQUIRE(rank.groups.size() == 1);
  CHECK(rank.groups[0].name == "1");
  CHECK(rank.groups[0].ranks == std::vector<int64_t>{0, 2});
}

TEST_CASE("job: gloo's ranges on a worker thread take record_param_comms' args in order (#14)") {
  TestTrace t;
  t.step(1, 0, 20000);
  t.collectiveArgs(t.op("record_param_comms", 100, 20), "allreduce", "0", 11);
  t.collectiveArgs(t.op("record_param_comms", 5000, 20), "allreduce", "0", 12);
  t.collectiveArgs(t.op("record_param_comms", 9000, 20), "wait", "0", -1);  // no range of its kind
  t.annotation("gloo:all_reduce", 200, 3000, 2);
  t.annotation("gloo:all_reduce", 5200, 1000, 2);
  t.finalize();
  SummaryOptions options;
  options.steps.drop_incomplete_tail = false;
  const RankSummary rank = summarizeRank(t.model, summarize(t.model, options));
  CHECK(rank.comm_source == "host ranges");
  REQUIRE(rank.steps.size() == 1);
  const auto& calls = rank.steps[0].collectives;
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].seq == 11);
  CHECK(calls[0].dur_ns == 3'000'000);
  CHECK(calls[1].seq == 12);
  CHECK(calls[1].group == "0");
}

namespace {

// One step of three ranks, three allreduces in group "0": a large one (10 ms transfer) and two
// small ones (1 ms); rank 2 arrives 4 ms late at each, and rank 1's trace lacks the large one.
Job missingCallJob(bool with_seq, bool with_sizes) {
  Job job;
  job.world_size = 3;
  const int64_t transfer[3] = {10, 1, 1};
  const int64_t nelems[3] = {1 << 20, 1 << 10, 1 << 10};
  for (int64_t r = 0; r < 3; ++r) {
    RankSummary rank = makeRank(r, 3);
    RankStep step;
    step.number = 1;
    step.step_ns = 60 * kMsNs;
    for (int64_t i = 0; i < 3; ++i) {
      if (r == 1 && i == 0) continue;
      const int64_t wait = r == 2 ? 0 : 4;
      step.collectives.push_back({"0", 0, "allreduce", (transfer[i] + wait) * kMsNs,
                                  with_seq ? i + 1 : -1, with_sizes ? nelems[i] : -1});
    }
    rank.steps.push_back(step);
    job.ranks.push_back(std::move(rank));
  }
  return job;
}

}  // namespace

TEST_CASE(
    "job: sequence numbers keep the pairs when a call is missing on one rank, order does not (#14)") {
  const JobAnalysis by_seq = analyzeJob(missingCallJob(true, false));
  CHECK(by_seq.matched_collectives == 3);
  CHECK(by_seq.matched_by_seq == 3);
  CHECK(collectiveMatching(by_seq) == "process group and sequence number");
  REQUIRE(by_seq.steps.size() == 1);
  CHECK(by_seq.steps[0].straggler == 2);
  CHECK(by_seq.steps[0].late_ns == 10 * kMsNs);  // the median of rank 0's 12 ms and rank 1's 8 ms
  CHECK(by_seq.ranks[0].wait_ns == Approx(12e6));
  CHECK(by_seq.ranks[1].wait_ns == Approx(8e6));
  CHECK(by_seq.ranks[1].transfer_ns == Approx(2e6));  // only the two calls it took part in
  CHECK(by_seq.ranks[2].transfer_ns == Approx(12e6));
  REQUIRE(by_seq.warnings.size() == 1);
  CHECK(by_seq.warnings[0] ==
        "step 1, group 0: 1 sequence number(s) not seen on every rank; each compared on the "
        "ranks that have it");

  // The same calls without seq: position 0 pairs rank 1's small call with the others' large
  // one, and rank 1 looks late (what matching by order cannot avoid) ...
  const JobAnalysis by_order = analyzeJob(missingCallJob(false, false));
  CHECK(by_order.matched_by_seq == 0);
  CHECK(by_order.matched_collectives == 2);
  CHECK(by_order.steps[0].straggler == 1);
  // ... unless the sizes ("In msg nelems") tell the calls apart: then nothing is compared.
  const JobAnalysis sized = analyzeJob(missingCallJob(false, true));
  CHECK(sized.matched_collectives == 0);
  CHECK(sized.steps[0].straggler == -1);
  CHECK(sized.warnings.back().find("collective 0 of group 0 differs between ranks") !=
        std::string::npos);
}

TEST_CASE("job: a process group's calls are compared on its own ranks only (#14)") {
  // Ranks 0-1 and 2-3 each all-reduce in their own group ("1", "2"), all four in group "0";
  // rank 3 is 5 ms late in both of its calls.
  Job job;
  job.world_size = 4;
  for (int64_t r = 0; r < 4; ++r) {
    RankSummary rank = makeRank(r, 4);
    const std::string pair = r < 2 ? "1" : "2";
    rank.groups = {{"0", "default_pg", {0, 1, 2, 3}},
                   {pair, "tp", r < 2 ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{2, 3}}};
    RankStep step;
    step.number = 1;
    step.step_ns = 60 * kMsNs;
    const int64_t wait = r == 3 ? 0 : 5 * kMsNs;
    step.collectives.push_back({pair, 0, "allreduce", 2 * kMsNs + (r == 2 ? wait : 0), 3, -1});
    step.collectives.push_back({"0", 0, "allreduce", 3 * kMsNs + wait, 9, -1});
    rank.steps.push_back(step);
    job.ranks.push_back(std::move(rank));
  }
  const JobAnalysis result = analyzeJob(job);
  CHECK(result.warnings.empty());
  CHECK(result.matched_collectives == 3);  // group 1, group 2, group 0
  CHECK(result.ranks[0].wait_ns == Approx(5e6));
  CHECK(result.ranks[2].wait_ns == Approx(10e6));  // waited for rank 3 twice
  CHECK(result.ranks[3].wait_ns == Approx(0));
  CHECK(result.ranks[0].transfer_ns == Approx(5e6));
  CHECK(result.steps[0].straggler == 3);
}

namespace {

// rankSummaryToJson's output inside a `steplint summary --format json` document, read back.
RankSummaryRead readBack(const nlohmann::json& rank_json, RankSummary& out, std::string& problem) {
  const nlohmann::json doc = {{"attribution", nlohmann::json::object()},
                              {"rank_summary", rank_json},
                              {"schema", "steplint.summary/1"}};
  return readRankSummaryDocument(doc.dump(2), out, problem);
}

}  // namespace

TEST_CASE("job: a rank summary survives JSON, and a corrupt one is an error") {
  RankSummary rank = makeRank(2, 4);
  rank.steps.push_back(makeStep(7, 45, 5, 2, 1));
  rank.steps[0].collectives[1].seq = 12;
  rank.steps[0].collectives[1].nelems = 4096;
  rank.groups = {{"0", "default_pg", {0, 1, 2, 3}}};
  rank.comm_source = "device kernels";
  const nlohmann::json j = rankSummaryToJson(rank);
  RankSummary back;
  std::string problem;
  REQUIRE(readBack(j, back, problem) == RankSummaryRead::kRead);
  CHECK(problem.empty());
  CHECK(back.steps[0].collectives[1].seq == 12);
  CHECK(back.steps[0].collectives[1].nelems == 4096);
  REQUIRE(back.groups.size() == 1);
  CHECK(back.groups[0].ranks == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(back.rank == 2);
  CHECK(back.world_size == 4);
  CHECK(back.comm_source == "device kernels");
  REQUIRE(back.steps.size() == 1);
  CHECK(back.steps[0].compute_ns == 45 * kMsNs);
  REQUIRE(back.steps[0].collectives.size() == 2);
  CHECK(back.steps[0].collectives[1].name == "allreduce");
  CHECK(back.steps[0].collectives[1].dur_ns == 4 * kMsNs);
  CHECK(back.steps[0].top_kernels[1].name == "gemm_bwd");
  CHECK(rankSummaryToJson(back) == j);

  nlohmann::json bad = j;
  bad["steps"][0]["collectives"][0]["dur_ns"] = "long";
  RankSummary untouched;
  CHECK(readBack(bad, untouched, problem) == RankSummaryRead::kBroken);
  CHECK(problem == "not a rank summary: dur_ns is not an integer");
  CHECK(untouched.steps.empty());
  CHECK(readBack(nlohmann::json::array(), untouched, problem) == RankSummaryRead::kBroken);
  bad = j;
  bad["steps"] = nlohmann::json::array({1, 2});
  CHECK(readBack(bad, untouched, problem) == RankSummaryRead::kBroken);
  CHECK(problem == "not a rank summary: a step is not an object");

  // Every list missing, of another type or too long is an error, not a read through an empty
  // simdjson array (that dereferenced no document: `summary DIR` crashed, found by job_fuzzer).
  const std::vector<std::pair<nlohmann::json::json_pointer, nlohmann::json>> lists = {
      {"/steps"_json_pointer, 5},
      {"/notes"_json_pointer, "a note"},
      {"/groups"_json_pointer, nlohmann::json::object()},
      {"/groups/0/ranks"_json_pointer, nullptr},
      {"/steps/0/collectives"_json_pointer, true},
      {"/steps/0/top_kernels"_json_pointer, 1.5}};
  for (const auto& [where, value] : lists) {
    bad = j;
    bad[where] = value;
    problem.clear();
    CHECK(readBack(bad, untouched, problem) == RankSummaryRead::kBroken);
    CHECK(problem.find(" is not an array of at most ") != std::string::npos);
    if (where == "/groups"_json_pointer) continue;  // optional: files from before groups
    bad[where.parent_pointer()].erase(where.back());
    problem.clear();
    CHECK(readBack(bad, untouched, problem) == RankSummaryRead::kBroken);
    CHECK(untouched.steps.empty());
  }
  bad = j;
  bad["steps"] = nlohmann::json::array();
  for (int i = 0; i <= 100'000; ++i) bad["steps"].push_back(0);
  CHECK(readBack(bad, untouched, problem) == RankSummaryRead::kBroken);
  CHECK(problem == "not a rank summary: steps is not an array of at most 100000");

  // Older files: no seq, nelems or groups.
  nlohmann::json old = j;
  old.erase("groups");
  for (auto& c : old["steps"][0]["collectives"]) c.erase("seq"), c.erase("nelems");
  REQUIRE(readBack(old, back, problem) == RankSummaryRead::kRead);
  CHECK(back.steps[0].collectives[1].seq == -1);
  CHECK(back.groups.empty());

  // What is no steplint summary at all is left to the trace importer.
  CHECK(readRankSummaryDocument(R"({"traceEvents": []})", untouched, problem) ==
        RankSummaryRead::kNotASummary);
  CHECK(readRankSummaryDocument("{\"schema\": \"steplint.check/1\"}", untouched, problem) ==
        RankSummaryRead::kNotASummary);
  CHECK(readRankSummaryDocument("not json", untouched, problem) == RankSummaryRead::kNotASummary);
  CHECK(readRankSummaryDocument(R"({"schema": "steplint.summary/1"})", untouched, problem) ==
        RankSummaryRead::kBroken);
  CHECK(problem.find("without \"rank_summary\"") != std::string::npos);
}
