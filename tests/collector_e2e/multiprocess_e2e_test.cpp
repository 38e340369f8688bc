// `steplint record` on a run of several processes (issue 16: torchrun, one trace per rank): a
// rank's collector writes "<-o>.rank<N>", any other process that finds the name taken
// "<-o>.pid<N>"; record moves each into place and reports the ranks as one job. The shell
// stands in for torchrun (Debian's torchrun does not start on Python 3.11), setting RANK and
// WORLD_SIZE as torchrun does.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

#include "e2e_support.h"
#include "steplint/trace/trace_file_names.h"

namespace steplint::e2e {
namespace {

namespace fs = std::filesystem;

std::string withTag(const std::string& trace, const std::string& tag) {
  return trace::processTracePath(trace, tag);
}

/// `name` in a folder of its own (scratchPath's names share one folder).
std::string traceInOwnFolder(const std::string& name) {
  const fs::path dir = scratchPath(name + "_dir");
  fs::remove_all(dir);
  fs::create_directories(dir);
  return (dir / (name + ".pt.trace.json")).string();
}

size_t stepsIn(const std::string& trace) {
  LintedTrace t;
  std::string error;
  if (!lintTrace(trace, t, &error)) return 0;
  size_t steps = 0;
  for (const trace::Event& e : t.model.events)
    steps += t.model.str(e.name).rfind("ProfilerStep#", 0) == 0;
  return steps;
}

/// Every file in the trace's folder: what the run left behind (staging files included).
std::set<std::string> filesBeside(const std::string& trace) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(trace).parent_path()))
    names.insert(entry.path().filename().string());
  return names;
}

std::string slowTrainer(const std::string& steps) {
  return std::string(SLOW_TRAINER) + " --steplint-steps --steps " + steps;
}

}  // namespace

TEST_CASE(
    "steplint record: each rank of a torchrun-like run writes its own trace, one job report (#16)",
    "[torch]") {
  const std::string trace = traceInOwnFolder("ranks");
  const std::string log = scratchPath("ranks.log");
  // Rank 1 runs 6 steps, rank 0 4: told apart by their traces.
  const std::string script = "RANK=0 WORLD_SIZE=2 " + slowTrainer("4") + " & RANK=1 WORLD_SIZE=2 " +
                             slowTrainer("6") + "; wait";
  const int rc = runProcess(
      {STEPLINT_EXE, "record", "--no-cupti", "--no-config", "-o", trace, "--", "sh", "-c", script},
      {{"OMP_NUM_THREADS", "1"}}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 0);
  CHECK(stepsIn(withTag(trace, "rank0")) == 4);
  CHECK(stepsIn(withTag(trace, "rank1")) == 6);
  CHECK_FALSE(fs::exists(trace));  // sh loads no torch: no trace of its own
  CHECK(filesBeside(trace) ==
        std::set<std::string>{"ranks.rank0.pt.trace.json", "ranks.rank1.pt.trace.json"});
  CHECK(output.find("trace: " + withTag(trace, "rank0") + " (rank 0)") != std::string::npos);
  CHECK(output.find("trace: " + withTag(trace, "rank1") + " (rank 1)") != std::string::npos);
  // One report: the job's (SL701 cannot decide without collectives) and each rank's own findings.
  CHECK(output.find("SL701 straggler-rank") != std::string::npos);
  CHECK(output.find("in 3 traces") != std::string::npos);
  CHECK(output.find("ranks.rank0.pt.trace.json:step 0: SL101") != std::string::npos);
  CHECK(output.find("ranks.rank1.pt.trace.json:step 0: SL101") != std::string::npos);
}

TEST_CASE("steplint record: processes without a rank never share a file (#16)", "[torch]") {
  SECTION("two at once: the second finds the first's file locked") {
    const std::string trace = traceInOwnFolder("twins");
    const std::string log = scratchPath("twins.log");
    const int rc =
        runProcess({STEPLINT_EXE, "record", "--no-cupti", "--no-config", "--no-report", "-o", trace,
                    "--", "sh", "-c", slowTrainer("3") + " & " + slowTrainer("5") + "; wait"},
                   {{"OMP_NUM_THREADS", "1"}}, log);
    const std::string output = readFile(log);
    INFO(output);
    CHECK(rc == 0);
    const std::set<std::string> files = filesBeside(trace);
    REQUIRE(files.size() == 2);
    std::set<size_t> steps;
    for (const std::string& name : files)
      steps.insert(stepsIn((fs::path(trace).parent_path() / name).string()));
    CHECK(steps == std::set<size_t>{3, 5});  // both whole: no interleaved or truncated file
    CHECK(output.find("(another process of the run: pid") != std::string::npos);
  }
  SECTION("one after the other: the second does not replace the first's finished trace") {
    const std::string trace = traceInOwnFolder("sequence");
    const std::string log = scratchPath("sequence.log");
    const int rc =
        runProcess({STEPLINT_EXE, "record", "--no-cupti", "--no-config", "--no-report", "-o", trace,
                    "--", "sh", "-c", slowTrainer("3") + "; " + slowTrainer("5")},
                   {{"OMP_NUM_THREADS", "1"}}, log);
    INFO(readFile(log));
    CHECK(rc == 0);
    CHECK(stepsIn(trace) == 3);  // the first process's trace is -o
    const std::set<std::string> files = filesBeside(trace);
    REQUIRE(files.size() == 2);
    for (const std::string& name : files)
      if (name != "sequence.pt.trace.json")
        CHECK(stepsIn((fs::path(trace).parent_path() / name).string()) == 5);
  }
}

}  // namespace steplint::e2e

namespace steplint::e2e {

TEST_CASE(
    "steplint record --summary-dir: each rank's summary file, from which the job report is built (#14)",
    "[torch]") {
  const std::string trace = traceInOwnFolder("summaries");
  const std::string dir = (fs::path(trace).parent_path() / "rank_summaries").string();
  const std::string log = scratchPath("summaries.log");
  const std::string script = "RANK=0 WORLD_SIZE=2 " + slowTrainer("4") + " & RANK=1 WORLD_SIZE=2 " +
                             slowTrainer("4") + "; wait";
  const int rc = runProcess({STEPLINT_EXE, "record", "--no-cupti", "--no-config", "--no-report",
                             "--summary-dir", dir, "-o", trace, "--", "sh", "-c", script},
                            {{"OMP_NUM_THREADS", "1"}}, log);
  INFO(readFile(log));
  CHECK(rc == 0);
  CHECK(fs::exists(fs::path(dir) / "summaries.rank0.summary.json"));
  CHECK(fs::exists(fs::path(dir) / "summaries.rank1.summary.json"));
  const std::string job_log = scratchPath("summaries_job.log");
  CHECK(runProcess({STEPLINT_EXE, "summary", dir}, {}, job_log) == 0);
  CHECK(readFile(job_log).find("2 rank(s) of 2") != std::string::npos);

  // A --summary-dir that cannot be a directory is refused before the program runs.
  const std::string refused_log = scratchPath("summaries_refused.log");
  CHECK(runProcess({STEPLINT_EXE, "record", "--summary-dir", withTag(trace, "rank0"), "-o", trace,
                    "--", "sh", "-c", "echo program-ran"},
                   {}, refused_log) == 2);
  CHECK(readFile(refused_log).find("program-ran") == std::string::npos);
  CHECK(readFile(refused_log).find("--summary-dir") != std::string::npos);
}

}  // namespace steplint::e2e
