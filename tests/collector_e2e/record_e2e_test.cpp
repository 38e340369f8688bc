// `steplint record` end to end: the exit code, the report and the "no trace" explanation; the
// trainer's ignored signals, concurrent runs on one -o and a full disk (issue 12).
#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace steplint::e2e {

TEST_CASE("steplint record passes the trainer's exit code through and prints the report",
          "[torch]") {
  const std::string trace = scratchPath("record.pt.trace.json.gz");
  const std::string log = scratchPath("record.log");
  const int rc = runProcess({STEPLINT_EXE, "record", "-o", trace, "--no-cupti", "--no-config", "--",
                             SLOW_TRAINER, "--steps", "8", "--steplint-steps", "--exit-code", "3"},
                            {}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 3);  // findings do not change it; the trainer's status does
  CHECK(output.find("SL101") != std::string::npos);
  CHECK(output.find("trace: " + trace) != std::string::npos);
  LintedTrace t;
  std::string error;
  REQUIRE(lintTrace(trace, t, &error));
  CHECK(t.countNamed("ProfilerStep#7") == 1);
}

TEST_CASE("steplint record --report-output keeps a JSON report apart from the trainer's output",
          "[torch]") {
  // On standard output the report would follow the trainer's prints: not JSON any more.
  const std::string trace = scratchPath("report-output.pt.trace.json.gz");
  const std::string report = scratchPath("report-output.json");
  const std::string log = scratchPath("report-output.log");
  const int rc = runProcess(
      {STEPLINT_EXE, "record", "-o", trace, "--no-cupti", "--no-config", "--format", "json",
       "--report-output", report, "--", SLOW_TRAINER, "--steps", "8", "--steplint-steps"},
      {}, log);
  INFO(readFile(log));
  CHECK(rc == 0);
  const nlohmann::json doc = nlohmann::json::parse(readFile(report));
  CHECK(doc.at("traces").at(0).at("source").get<std::string>().find("report-output.pt.trace") !=
        std::string::npos);
  CHECK(readFile(log).find("\"traces\"") == std::string::npos);
  CHECK(readFile(log).find("--report-output") == std::string::npos);  // no note: it is apart
}

TEST_CASE("steplint record samples host memory every step: a held 8 MiB per step is SL404",
          "[torch]") {
  const LintedTrace& leak = recordSample(
      "hold8.json", {SLOW_TRAINER, "--steps", "12", "--steplint-steps", "--hold-mb-per-step", "8"});
  CHECK(leak.countNamed("Host memory (steplint)") == 0);  // a counter, not an X event
  size_t samples = 0;
  for (const auto& c : leak.model.counters)
    samples += leak.model.str(c.name) == "Host memory (steplint)";
  CHECK(samples >= 12);
  const analyzer::Diagnostic* d = leak.finding("SL404");
  REQUIRE(d != nullptr);
  INFO(d->message);
  CHECK(d->message.rfind("host resident memory (RSS) grows", 0) == 0);
  // The trainer holds 8 MiB more every step; the rest of the process adds little.
  CHECK(d->evidence.metric("growth_bytes_per_step") > 7.5 * 1048576);
  CHECK(d->evidence.metric("growth_bytes_per_step") < 12.0 * 1048576);

  const LintedTrace& steady =
      recordSample("hold0.json", {SLOW_TRAINER, "--steps", "12", "--steplint-steps"});
  CHECK(steady.finding("SL404") == nullptr);
  CHECK_FALSE(steady.notChecked("SL404"));
}

TEST_CASE(
    "steplint record writes the cores and the sample its workers: more workers than cores is SL102",
    "[torch]") {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::string workers = std::to_string(cores + 1);
  const LintedTrace& t = recordSample(
      "workers.json", {FAST_TRAINER, "--steps", "6", "--steplint-steps", "--workers", workers});
  const analyzer::Diagnostic* d = t.finding("SL102");
  REQUIRE(d != nullptr);
  CHECK(d->message == workers + " DataLoader workers + 1 training process on " +
                          std::to_string(cores) + " CPU cores: " + std::to_string(cores + 2) +
                          " processes want a core each");
  const LintedTrace& fits =
      recordSample("workers0.json", {FAST_TRAINER, "--steps", "6", "--steplint-steps"});
  CHECK(fits.finding("SL102") == nullptr);
  CHECK_FALSE(fits.notChecked("SL102"));  // both counts are in the trace
}

TEST_CASE("steplint record explains when a program without LibTorch writes no trace", "[torch]") {
  const std::string trace = scratchPath("none.pt.trace.json.gz");
  const std::string log = scratchPath("none.log");
  const int rc =
      runProcess({STEPLINT_EXE, "record", "-o", trace, "--", "/bin/sh", "-c", "exit 4"}, {}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 4);
  CHECK(output.find("no trace was written") != std::string::npos);
  CHECK(output.find("does not link LibTorch") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(trace));
}

}  // namespace steplint::e2e

namespace steplint::e2e {
namespace {

size_t countSteps(const trace::TraceModel& model) {
  size_t n = 0;
  for (const trace::Event& e : model.events)
    n += model.name(e).rfind("ProfilerStep#", 0) == 0 ? 1 : 0;
  return n;
}

std::string extraValue(const trace::TraceModel& model, const std::string& key) {
  for (const auto& [k, v] : model.metadata.extra)
    if (k == key) return v;
  return {};
}

/// steplint record's staging files for -o `trace` (".steplint-XXXXXX.<name>[.partial]").
std::vector<std::string> stagingFiles(const std::string& trace) {
  std::vector<std::string> found;
  const std::filesystem::path out(trace);
  const std::string name = out.filename().string();
  for (const auto& entry : std::filesystem::directory_iterator(out.parent_path())) {
    const std::string file = entry.path().filename().string();
    if (file.rfind(".steplint-", 0) == 0 && file.find("." + name) != std::string::npos)
      found.push_back(entry.path());
  }
  return found;
}

/// Waits until the trainer recording to -o `trace` has flushed ProfilerStep#`step` (to a
/// staging file; <trace>.partial is where steplint record had it written before issue 12).
bool waitForStagedStep(const std::string& trace, int step) {
  const std::string needle = "ProfilerStep#" + std::to_string(step) + "\"";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<std::string> files = stagingFiles(trace);
    files.push_back(trace + ".partial");
    for (const std::string& file : files)
      if (readFile(file).find(needle) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

TEST_CASE(
    "steplint record: a trainer started with SIGINT and SIGTERM ignored is recorded to the end",
    "[torch]") {
  const std::string trace = scratchPath("ignored.pt.trace.json");
  const std::string log = scratchPath("ignored.log");
  ChildSetup setup;
  setup.ignored_signals = {SIGINT, SIGTERM};  // nohup, or `steplint record ... &` in a script
  setup.own_process_group = true;
  const pid_t pid = startProcess(
      {STEPLINT_EXE, "record", "--no-report", "--no-cupti", "-o", trace, "--", SLOW_TRAINER,
       "--steps", "30", "--steplint-steps", "--sleep-after-step-ms", "20"},
      {{"OMP_NUM_THREADS", "1"}}, log, setup);
  const bool started = waitForStagedStep(trace, 3);
  kill(-pid, SIGINT);  // steplint and the trainer both: they ignore it and go on
  kill(-pid, SIGTERM);
  const int rc = waitProcess(pid);
  INFO(readFile(log));
  REQUIRE(started);
  CHECK(rc == 0);
  LintedTrace t;
  std::string error;
  REQUIRE(lintTrace(trace, t, &error));
  CHECK(countSteps(t.model) == 30);  // before: the collector stopped at the signal (8 of 30 kept)
  CHECK(t.countNamed("ProfilerStep#29") == 1);
  CHECK(extraValue(t.model, "steplint_stopped_early").empty());
}

TEST_CASE("steplint record: two recordings to the same -o at once each report their own trace",
          "[torch]") {
  const std::string trace = scratchPath("shared.pt.trace.json");
  const std::string log_short = scratchPath("shared_short.log");
  const std::string log_long = scratchPath("shared_long.log");
  const Env env = {{"OMP_NUM_THREADS", "1"}};
  // Told apart by their reports: 3 steps are too few for SL404; 12 steps that hold 8 MiB each are
  // SL404.
  const pid_t a = startProcess({STEPLINT_EXE, "record", "--no-cupti", "--no-config", "-o", trace,
                                "--", SLOW_TRAINER, "--steps", "3", "--steplint-steps"},
                               env, log_short);
  const pid_t b =
      startProcess({STEPLINT_EXE, "record", "--no-cupti", "--no-config", "-o", trace, "--",
                    SLOW_TRAINER, "--steps", "12", "--steplint-steps", "--hold-mb-per-step", "8"},
                   env, log_long);
  const int rc_a = waitProcess(a);
  const int rc_b = waitProcess(b);
  const std::string out_short = readFile(log_short);
  const std::string out_long = readFile(log_long);
  INFO(out_short << "\n----\n" << out_long);
  CHECK(rc_a == 0);
  CHECK(rc_b == 0);
  CHECK(out_short.find("SL404 memory-grows-across-steps: fewer than 5 steps") != std::string::npos);
  CHECK(out_short.find("host resident memory (RSS) grows") == std::string::npos);
  CHECK(out_long.find("SL404 [warning] host resident memory (RSS) grows") != std::string::npos);
  for (const std::string& out : {out_short, out_long}) {
    CHECK(out.find("steplint: note: trace: " + trace) != std::string::npos);
    CHECK(out.find("failed") == std::string::npos);
  }
  LintedTrace t;  // whichever finished last; whole either way
  std::string error;
  REQUIRE(lintTrace(trace, t, &error));
  CHECK(t.model.stats.get(trace::Stat::json_truncated) == 0);
  const size_t steps = countSteps(t.model);
  CHECK((steps == 3 || steps == 12));
  CHECK(stagingFiles(trace).empty());
}

TEST_CASE("steplint record: a full disk is a write failure (exit 2), and the previous trace stays",
          "[torch]") {
  const std::string trace = scratchPath("full.pt.trace.json");
  const std::string log = scratchPath("full.log");
  const std::string previous = R"({"schemaVersion": 1, "traceEvents": []})";
  { std::ofstream(trace) << previous; }
  ChildSetup setup;
  setup.file_size_limit = 256 * 1024;  // RLIMIT_FSIZE: write() fails with EFBIG, as with ENOSPC
  const int rc =
      waitProcess(startProcess({STEPLINT_EXE, "record", "--no-report", "--no-cupti", "-o", trace,
                                "--", SLOW_TRAINER, "--steps", "8", "--steplint-steps"},
                               {{"OMP_NUM_THREADS", "1"}}, log, setup));
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 2);  // the trainer succeeded, its trace did not
  CHECK(output.find("steplint: error: " + trace + ".partial: writing the trace failed: write to " +
                    trace + ".partial failed: File too large") != std::string::npos);
  CHECK(output.find("crash") == std::string::npos);
  CHECK(readFile(trace) == previous);  // replaced only by a finished trace
  CHECK(std::filesystem::exists(trace + ".partial"));
  CHECK(stagingFiles(trace).empty());
}

TEST_CASE("steplint record: a run that records nothing leaves the earlier trace", "[torch]") {
  // An argument typo: the trainer exits before its first op, and its collector writes a trace
  // of nothing, which used to replace a good trace from an earlier run.
  const std::string trace = scratchPath("typo.pt.trace.json");
  const std::string log = scratchPath("typo.log");
  const std::string previous = R"({"schemaVersion": 1, "traceEvents": []})";
  { std::ofstream(trace) << previous; }
  const int rc = waitProcess(startProcess({STEPLINT_EXE, "record", "--no-report", "--no-cupti",
                                           "-o", trace, "--", SLOW_TRAINER, "--no-such-option"},
                                          {}, log));
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 2);  // the trainer's own status
  CHECK(output.find("steplint: warning: the run recorded no operator or step: " + trace +
                    " was left as it was (an earlier trace)") != std::string::npos);
  CHECK(readFile(trace) == previous);
  CHECK(stagingFiles(trace).empty());
}

TEST_CASE("steplint record measures what recording one op costs and writes it into the trace (#13)",
          "[torch]") {
  const LintedTrace& t =
      recordSample("overhead.json", {SLOW_TRAINER, "--steps", "6", "--steplint-steps"});
  const std::string per_op = extraValue(t.model, "steplint_op_overhead_ns");
  const std::string samples = extraValue(t.model, "steplint_op_overhead_samples");
  REQUIRE_FALSE(per_op.empty());
  REQUIRE_FALSE(samples.empty());
  // One op in 64 is timed: thousands of ops per step give dozens of samples. The collector's
  // callbacks cost a fraction of a microsecond per op (plus RecordFunction's own 100 ns), well
  // under the 3 % overhead budget's worth per op of the sample.
  CHECK(std::stoll(samples) >= 50);
  CHECK(std::stoll(per_op) > 100);
  CHECK(std::stoll(per_op) < 20000);
}

}  // namespace steplint::e2e
