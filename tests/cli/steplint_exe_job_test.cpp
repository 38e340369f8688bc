// `steplint summary` and `check` on a whole job: a folder of ranks' traces written by
// steplint-tracegen's multi-rank mode, a quoted glob, and what goes wrong with job inputs.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "run_steplint.h"

using steplint::test::runShell;
using steplint::test::runSteplint;
using steplint::test::scratchPath;
using steplint::test::shellQuote;
using steplint::test::testDataPath;

namespace {

std::string writeJob(const std::string& name, const std::string& args) {
  const std::string dir = scratchPath(name);
  const auto gen = runShell(std::string(STEPLINT_TRACEGEN_EXE) + " -q --steps 5 " + args + " -o " +
                            shellQuote(dir));
  INFO(gen.err);
  REQUIRE(gen.exit_code == 0);
  return dir;
}

}  // namespace

TEST_CASE("job cli: a folder of ranks gets one job report naming the straggler") {
  const std::string dir =
      writeJob("job_backward", "--ranks 4 --straggler backward --straggler-rank 3");
  const auto summary = runSteplint({"summary", dir});
  INFO(summary.err);
  CHECK(summary.exit_code == 0);
  CHECK(
      summary.out.find(
          "Job world_size=4 backend=nccl: 4 rank(s) of 4, 5 step(s) compared, 10 collective(s) matched "
          "by order within each process group") != std::string::npos);
  CHECK(summary.out.find("Straggler: rank 3, late in 5 of 5 steps") != std::string::npos);
  CHECK(summary.out.find("cause: GPU compute") != std::string::npos);

  const auto check = runSteplint({"check", dir, "--format", "json"});
  CHECK(check.exit_code == 1);  // a warning: the CI gate fails
  const auto report = nlohmann::json::parse(check.out);
  REQUIRE(report["traces"].size() == 1);  // the job's findings replace the ranks' own
  const auto& finding = report["traces"][0]["findings"][0];
  CHECK(finding["code"] == "SL701");
  CHECK(finding["evidence"]["metrics"]["rank"] == 3);
  CHECK(finding["saving"]["per_step_ms"].get<double>() == Approx(8.0).epsilon(0.05));

  const auto per_rank = runSteplint({"check", dir, "--per-rank", "--format", "json"});
  const auto per_rank_report = nlohmann::json::parse(per_rank.out);
  CHECK(per_rank_report["traces"].size() == 5);  // four ranks and the job

  // A second file of rank 3 is out of the job ("kept the first"), so out of the per-rank
  // findings and their totals too: it was listed unscoped by the job's waits.
  REQUIRE(runShell("cp " + shellQuote(dir + "/rank3.pt.trace.json") + " " +
                   shellQuote(dir + "/zz_copy_rank3.pt.trace.json"))
              .exit_code == 0);
  const auto with_copy = runSteplint({"check", dir, "--per-rank", "--format", "json"});
  CHECK(with_copy.err.find("rank 3 appears twice") != std::string::npos);
  const auto copy_report = nlohmann::json::parse(with_copy.out);
  CHECK(copy_report["traces"].size() == 5);
  CHECK(copy_report["totals"] == per_rank_report["totals"]);
  for (const auto& t : copy_report["traces"])
    CHECK(t["source"].get<std::string>().find("zz_copy") == std::string::npos);
}

TEST_CASE("job cli: a balanced job passes, a quoted glob works, JSON is steplint.jobs/1") {
  const std::string dir = writeJob("job_balanced", "--ranks 3 --collectives gloo");
  const auto check = runSteplint({"check", dir + "/rank*.pt.trace.json"});
  INFO(check.out << check.err);
  CHECK(check.exit_code == 0);
  CHECK(check.out.find("No findings") != std::string::npos);
  const auto summary = runSteplint({"summary", dir, "--format", "json"});
  const auto doc = nlohmann::json::parse(summary.out);
  CHECK(doc["schema"] == "steplint.jobs/1");
  REQUIRE(doc["jobs"].size() == 1);
  CHECK(doc["jobs"][0]["straggler"].is_null());
  CHECK(doc["jobs"][0]["ranks"].size() == 3);
  CHECK(doc["jobs"][0]["matched_collectives"] == 10);
  CHECK(doc["jobs"][0]["collective_matching"]["method"] == "order");
}

TEST_CASE("job cli: missing ranks, file-name ranks and empty folders are said, not fatal") {
  const std::string dir = writeJob(
      "job_no_info", "--ranks 3 --no-distributed-info --straggler dataloader --straggler-rank 0");
  const auto named = runSteplint({"summary", dir});
  CHECK(named.exit_code == 0);
  CHECK(named.out.find("rank 0 taken from the file name") != std::string::npos);
  CHECK(named.out.find("cause: input pipeline") != std::string::npos);

  const std::string two = writeJob("job_missing", "--ranks 4");
  REQUIRE(runShell("rm " + shellQuote(two + "/rank2.pt.trace.json")).exit_code == 0);
  const auto missing = runSteplint({"check", two});
  CHECK(missing.exit_code == 0);
  CHECK(missing.err.find("only 3 of 4 ranks have a trace (missing: 2)") != std::string::npos);

  const std::string empty = scratchPath("job_empty");
  REQUIRE(runShell("mkdir -p " + shellQuote(empty)).exit_code == 0);
  const auto none = runSteplint({"summary", empty});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("no trace files in it") != std::string::npos);
  const auto glob = runSteplint({"check", empty + "/*.json"});
  CHECK(glob.err.find("matches no file") != std::string::npos);
}

// A folder holding a job's ranks and a trace that names no rank: the job gets its report and
// the other trace its own, in `check` and `summary`, text and JSON; none is left out.
TEST_CASE("job cli: a trace with no rank beside a job's ranks is reported on its own") {
  const std::string dir = writeJob("job_and_other", "--ranks 2 --collectives gloo");
  const std::string other = dir + "/other.pt.trace.json";
  // A single trace with its distributedInfo line taken out: no rank anywhere.
  const std::string unranked = std::string(STEPLINT_TRACEGEN_EXE) +
                               " -q --steps 5 --dataloader-ms 20 -o " + shellQuote(other) +
                               " && sed -i '/\"distributedInfo\"/d' " + shellQuote(other);
  REQUIRE(runShell(unranked).exit_code == 0);
  const auto ends_with = [](const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() &&
           text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
  };

  const auto check = runSteplint({"check", dir, "--format", "json"});
  INFO(check.err);
  CHECK(check.err.find("other.pt.trace.json: no distributedInfo and no rank in the file name: not "
                       "a rank of the job, reported on its own") != std::string::npos);
  const auto report = nlohmann::json::parse(check.out);
  REQUIRE(report["traces"].size() == 2);  // the job, then the other trace
  CHECK(ends_with(report["traces"][0]["source"], "job_and_other"));
  CHECK(ends_with(report["traces"][1]["source"], "job_and_other/other.pt.trace.json"));
  bool loader = false;
  for (const auto& f : report["traces"][1]["findings"]) loader |= f["code"] == "SL101";
  CHECK(loader);
  CHECK(check.exit_code == 1);  // the other trace's warning fails the gate

  // Named one by one, the same: the trace keeps its findings beside the job's.
  const auto listed = runSteplint({"check", dir + "/rank0.pt.trace.json",
                                   dir + "/rank1.pt.trace.json", other, "--format", "json"});
  const auto listed_report = nlohmann::json::parse(listed.out);
  REQUIRE(listed_report["traces"].size() == 2);
  CHECK(ends_with(listed_report["traces"][0]["source"], "other.pt.trace.json"));

  // A single-process run's trace (distributedInfo with world_size 1) is no rank either.
  const auto single =
      runShell(std::string(STEPLINT_TRACEGEN_EXE) + " -q --steps 5 -o " + shellQuote(other) +
               " && sed -i 's/\"distributedInfo\": {\"rank\": 0}/\"distributedInfo\": "
               "{\"rank\": 0, \"world_size\": 1}/' " +
               shellQuote(other));
  REQUIRE(single.exit_code == 0);
  const auto with_single = runSteplint({"check", dir, "--format", "json"});
  CHECK(with_single.err.find("other.pt.trace.json: a single-process run (world_size 1): not a "
                             "rank of the job") != std::string::npos);
  CHECK(with_single.err.find("different jobs") == std::string::npos);
  CHECK(nlohmann::json::parse(with_single.out)["traces"].size() == 2);
  REQUIRE(runShell(unranked).exit_code == 0);

  const auto summary = runSteplint({"summary", dir});
  CHECK(summary.exit_code == 0);
  CHECK(summary.out.find("Job world_size=2") != std::string::npos);
  CHECK(summary.out.find("steplint summary: " + other) != std::string::npos);
  const auto doc = nlohmann::json::parse(runSteplint({"summary", dir, "--format", "json"}).out);
  CHECK(doc["jobs"][0]["ranks"].size() == 2);
  REQUIRE(doc["traces"].size() == 1);
  CHECK(doc["traces"][0]["source"] == other);
}

TEST_CASE("job cli: the job report from per-rank summary files alone") {
  // With torch 2.3's args: the sequence numbers survive the summary files (#14).
  const std::string dir =
      writeJob("job_files", "--ranks 3 --straggler sync --straggler-rank 1 --collective-args seq");
  const std::string summaries = scratchPath("job_files_summaries");
  REQUIRE(runShell("mkdir -p " + shellQuote(summaries)).exit_code == 0);
  for (int r = 0; r < 3; ++r) {
    const std::string name = "/rank" + std::to_string(r);
    const auto one = runSteplint({"summary", "--format", "json", dir + name + ".pt.trace.json",
                                  "-o", summaries + name + ".summary.json"});
    REQUIRE(one.exit_code == 0);
  }
  const auto job = runSteplint({"summary", summaries});
  INFO(job.err);
  CHECK(job.exit_code == 0);
  CHECK(job.out.find("3 rank(s) of 3") != std::string::npos);
  CHECK(job.out.find("10 collective(s) matched by process group and sequence number") !=
        std::string::npos);
  CHECK(job.out.find("Straggler: rank 1") != std::string::npos);
  CHECK(job.out.find("cause: host syncs") != std::string::npos);
  const auto check =
      runSteplint({"check", summaries + "/rank0.summary.json", summaries + "/rank1.summary.json",
                   summaries + "/rank2.summary.json"});
  CHECK(check.exit_code == 1);
  CHECK(check.out.find("SL701") != std::string::npos);
}

TEST_CASE("job cli: job rules follow --select, --ignore, steplint.toml and baselines (#14)") {
  const std::string dir =
      writeJob("job_select", "--ranks 4 --straggler backward --straggler-rank 1");
  const auto only = runSteplint({"check", dir, "--no-config", "--select", "SL701"});
  CHECK(only.exit_code == 1);
  CHECK(only.out.find("SL701 [warning] rank 1 keeps the other 3 rank(s) waiting") !=
        std::string::npos);
  CHECK(only.out.find("(1 rule selected)") != std::string::npos);

  const auto ignored = runSteplint({"check", dir, "--no-config", "--ignore", "straggler-rank"});
  INFO(ignored.out << ignored.err);
  CHECK(ignored.exit_code == 0);
  CHECK(ignored.out.find("No findings in 1 trace (2 rules selected)") != std::string::npos);
  const auto trace_rules =
      runSteplint({"check", dir, "--no-config", "--select", "SL1", "--format", "json"});
  CHECK(trace_rules.exit_code == 0);
  CHECK(nlohmann::json::parse(trace_rules.out)["traces"][0]["findings"].empty());
  const auto typo = runSteplint({"check", dir, "--no-config", "--select", "straggler-rnak"});
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("unknown rule selector 'straggler-rnak' (did you mean 'straggler-rank'?)") !=
        std::string::npos);

  // The folder's own steplint.toml applies to its job.
  REQUIRE(
      runShell("printf '[lint]\\nignore = [\"SL7\"]\\n' > " + shellQuote(dir + "/steplint.toml"))
          .exit_code == 0);
  const auto configured = runSteplint({"check", dir});
  CHECK(configured.exit_code == 0);
  CHECK(configured.out.find("(0 rules selected)") != std::string::npos);
  REQUIRE(runShell("rm " + shellQuote(dir + "/steplint.toml")).exit_code == 0);

  const std::string baseline = scratchPath("job_select.baseline.json");
  const auto write = runSteplint({"check", dir, "--no-config", "--write-baseline", baseline});
  CHECK(write.exit_code == 0);
  CHECK(write.err.find("wrote 1 finding(s) to the baseline") != std::string::npos);
  const auto accepted = runSteplint({"check", dir, "--no-config", "--baseline", baseline});
  CHECK(accepted.exit_code == 0);
  CHECK(accepted.out.find("1 suppressed by the baseline") != std::string::npos);
}

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE(
    "job cli: a folder that is no job: each trace imported once, each problem said once (#14)") {
  // Two single-process runs, a trace that loses an event, and a JSON file that is no trace.
  const std::string dir = scratchPath("not_a_job");
  REQUIRE(runShell("rm -rf " + shellQuote(dir) + " && mkdir -p " + shellQuote(dir)).exit_code == 0);
  for (const char* seed : {"1", "2"})
    REQUIRE(runShell(std::string(STEPLINT_TRACEGEN_EXE) + " -q --steps 3 --seed " + seed + " -o " +
                     shellQuote(dir + "/run" + seed + ".pt.trace.json"))
                .exit_code == 0);
  REQUIRE(runShell("printf '%s' '{\"x\": 1}' > " + shellQuote(dir + "/notes.json")).exit_code == 0);
  REQUIRE(
      runShell(
          "printf '%s' '{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
          "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, "
          "\"ts\": 0, \"dur\": 100}, {\"ph\": \"X\", \"name\": \"bad\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
          "\"dur\": \"x\"}]}' > " +
          shellQuote(dir + "/lossy.json"))
          .exit_code == 0);
  for (const char* command : {"check", "summary"}) {
    const auto run = runSteplint({command, dir});
    INFO(command << "\n" << run.err);
    CHECK(run.exit_code != 2);  // notes.json is no trace: skipped with a warning, no error
    CHECK(count(run.err, "warning: " + dir + "/notes.json: skipped: not a trace") == 1);
    CHECK(count(run.err, "lossy.json: 1 x event_bad_number") == 1);
    CHECK(run.out.find("Job ") == std::string::npos);
  }
  const auto check = runSteplint({"check", dir, "--format", "json"});
  CHECK(nlohmann::json::parse(check.out)["traces"].size() == 3);  // each trace's own findings
  const auto summary = runSteplint({"summary", dir});
  CHECK(count(summary.out, "steplint summary: ") == 3);
}

TEST_CASE(
    "job cli: diff of two job folders: the job's step, the slowest rank, rank by rank (#14, #15)") {
  const std::string base =
      writeJob("diff_base", "--ranks 4 --straggler backward --straggler-rank 3");
  const std::string next = writeJob("diff_new", "--ranks 4");
  const auto text = runSteplint({"diff", base, next});
  INFO(text.err);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("Job step time: ") != std::string::npos);
  CHECK(text.out.find("Slowest rank: rank 3 (the others waited ") != std::string::npos);
  CHECK(text.out.find("cause: GPU compute) → rank ") != std::string::npos);

  const auto json = runSteplint({"diff", base, next + "/rank*.pt.trace.json", "--format", "json"});
  CHECK(json.exit_code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["schema"] == "steplint.jobdiff/1");
  CHECK(doc["step_delta_ms"].get<double>() ==
        Approx(-8).epsilon(0.05));  // the planted 8 ms of backward
  CHECK(doc["base"]["straggler"]["rank"] == 3);
  CHECK(doc["new"]["straggler"].is_null());
  REQUIRE(doc["ranks"].size() == 4);
  const double compute_delta = doc["ranks"][3]["new"]["compute_ms"].get<double>() -
                               doc["ranks"][3]["base"]["compute_ms"].get<double>();
  CHECK(compute_delta == Approx(-8).epsilon(0.05));
  // The job rules ran on both: the straggler finding is fixed; --no-findings leaves them out.
  REQUIRE(doc["findings"].size() == 1);
  CHECK(doc["findings"][0]["code"] == "SL701");
  CHECK(doc["findings"][0]["change"] == "fixed");
  const auto bare = runSteplint({"diff", base, next, "--format", "json", "--no-findings"});
  CHECK(nlohmann::json::parse(bare.out)["findings"].is_null());

  const auto markdown = runSteplint({"diff", base, next, "--format", "markdown"});
  CHECK(markdown.out.find("## steplint diff (job)") != std::string::npos);
  const auto empty = runSteplint({"diff", base, scratchPath("no_such_job_dir") + "/*.json"});
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find("matches no file") != std::string::npos);
}

TEST_CASE("job cli: diff of the real 4-rank DDP jobs: the DataLoader straggler fixed (#14, #15)") {
  // tests/data/gpu_ddp (H200, gloo): rank 2's DataLoader 4x slower, then the balanced run.
  const auto run = runSteplint({"diff", testDataPath("gpu_ddp/dataloader"),
                                testDataPath("gpu_ddp/balanced"), "--format", "json"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const auto doc = nlohmann::json::parse(run.out);
  CHECK(doc["base"]["ranks"] == 4);
  CHECK(doc["base"]["straggler"]["rank"] == 2);
  CHECK(doc["base"]["straggler"]["cause"] == "input pipeline");
  CHECK(doc["base"]["slowest_rank"]["rank"] == 2);
  // About its DataLoader's extra time (22.2 against the others' 10.2-11.2 ms per step): the two
  // gloo all-reduces of a step overlap on two worker threads and wait for it together, once.
  CHECK(doc["base"]["slowest_rank"]["late_ms"].get<double>() == Approx(12.4).epsilon(0.05));
  CHECK(doc["new"]["straggler"].is_null());
  CHECK(doc["step_delta_ms"].get<double>() == Approx(-7.87).epsilon(0.05));
  // The waiting ranks stop waiting: the job's comm wait falls by about the straggler's delay.
  CHECK(doc["new"]["comm_wait_ms"].get<double>() - doc["base"]["comm_wait_ms"].get<double>() ==
        Approx(-8.4).epsilon(0.05));
}
