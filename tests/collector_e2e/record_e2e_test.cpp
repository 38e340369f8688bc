// `steplint record` end to end: the exit code, the report and the "no trace" explanation.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <thread>

#include "e2e_support.h"

namespace steplint::e2e {

TEST_CASE("steplint record passes the trainer's exit code through and prints the report", "[torch]") {
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

TEST_CASE("steplint record samples host memory every step: a held 8 MiB per step is SL404", "[torch]") {
  const LintedTrace& leak =
      recordSample("hold8.json", {SLOW_TRAINER, "--steps", "12", "--steplint-steps", "--hold-mb-per-step", "8"});
  CHECK(leak.countNamed("Host memory (steplint)") == 0);  // a counter, not an X event
  size_t samples = 0;
  for (const auto& c : leak.model.counters) samples += leak.model.str(c.name) == "Host memory (steplint)";
  CHECK(samples >= 12);
  const analyzer::Diagnostic* d = leak.finding("SL404");
  REQUIRE(d != nullptr);
  INFO(d->message);
  CHECK(d->message.rfind("host resident memory (RSS) grows", 0) == 0);
  // The trainer holds 8 MiB more every step; the rest of the process adds little.
  CHECK(d->evidence.metric("growth_bytes_per_step") > 7.5 * 1048576);
  CHECK(d->evidence.metric("growth_bytes_per_step") < 12.0 * 1048576);

  const LintedTrace& steady = recordSample("hold0.json", {SLOW_TRAINER, "--steps", "12", "--steplint-steps"});
  CHECK(steady.finding("SL404") == nullptr);
  CHECK_FALSE(steady.notChecked("SL404"));
}

TEST_CASE("steplint record writes the cores and the sample its workers: more workers than cores is SL102", "[torch]") {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::string workers = std::to_string(cores + 1);
  const LintedTrace& t = recordSample("workers.json", {FAST_TRAINER, "--steps", "6", "--steplint-steps", "--workers", workers});
  const analyzer::Diagnostic* d = t.finding("SL102");
  REQUIRE(d != nullptr);
  CHECK(d->message == workers + " DataLoader workers + 1 training process on " + std::to_string(cores) +
                          " CPU cores: " + std::to_string(cores + 2) + " processes want a core each");
  const LintedTrace& fits = recordSample("workers0.json", {FAST_TRAINER, "--steps", "6", "--steplint-steps"});
  CHECK(fits.finding("SL102") == nullptr);
  CHECK_FALSE(fits.notChecked("SL102"));  // both counts are in the trace
}

TEST_CASE("steplint record explains when a program without LibTorch writes no trace", "[torch]") {
  const std::string trace = scratchPath("none.pt.trace.json.gz");
  const std::string log = scratchPath("none.log");
  const int rc = runProcess({STEPLINT_EXE, "record", "-o", trace, "--", "/bin/sh", "-c", "exit 4"}, {}, log);
  const std::string output = readFile(log);
  INFO(output);
  CHECK(rc == 4);
  CHECK(output.find("no trace was written") != std::string::npos);
  CHECK(output.find("does not link LibTorch") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(trace));
}

}  // namespace steplint::e2e
