// The sample trainers recorded through the preload library, as `steplint record` runs them.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

#include "e2e_support.h"

namespace steplint::e2e {
namespace {

constexpr int kSteps = 20;

const LintedTrace& slowMarked() {
  return recordSample("slow_marked",
                      {SLOW_TRAINER, "--steps", std::to_string(kSteps), "--steplint-steps"});
}
const LintedTrace& fastMarked() {
  return recordSample("fast_marked",
                      {FAST_TRAINER, "--steps", std::to_string(kSteps), "--steplint-steps"});
}

size_t countPrefixed(const trace::TraceModel& model, std::string_view prefix) {
  size_t n = 0;
  for (const trace::Event& e : model.events)
    n += model.name(e).substr(0, prefix.size()) == prefix ? 1 : 0;
  return n;
}

/// Events named `name` nested (at any depth) in an event whose name starts with `range_prefix`.
size_t countInside(const trace::TraceModel& model, std::string_view name,
                   std::string_view range_prefix) {
  size_t n = 0;
  for (const trace::Event& e : model.events) {
    if (model.name(e) != name) continue;
    for (uint32_t p = e.parent; p != trace::kNoIndex; p = model.events[p].parent) {
      if (model.name(model.events[p]).substr(0, range_prefix.size()) == range_prefix) {
        ++n;
        break;
      }
    }
  }
  return n;
}

/// Events named `name` in the raw JSON whose args carry a key containing "host_sync".
size_t countFlaggedHostSyncs(const nlohmann::json& trace, const std::string& name) {
  size_t n = 0;
  if (!trace.is_object() || !trace.contains("traceEvents")) return 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e.value("name", "") != name || !e.contains("args")) continue;
    for (const auto& [key, value] : e["args"].items())
      n += key.find("host_sync") != std::string::npos ? 1 : 0;
  }
  return n;
}

std::string notes(const LintedTrace& t) {
  std::string all;
  for (const std::string& n : t.summary.notes) all += n + "\n";
  return all;
}

}  // namespace

TEST_CASE("slow sample with marked steps has one ProfilerStep per step", "[torch]") {
  const LintedTrace& t = slowMarked();
  INFO(notes(t));
  REQUIRE(t.model.events.size() > 100);
  CHECK(countPrefixed(t.model, "ProfilerStep#") == kSteps);
  CHECK(t.countNamed("ProfilerStep#0") == 1);
  CHECK(t.countNamed("ProfilerStep#19") == 1);
  CHECK(t.summary.steps.steps.size() >= kSteps - 1);  // the tail step may be dropped
}

TEST_CASE("slow sample: SL101 reports the DataLoader wait with its share", "[torch]") {
  const LintedTrace& t = slowMarked();
  INFO(notes(t));
  REQUIRE(t.model.events.size() > 100);
  CHECK(countPrefixed(t.model, "enumerate(DataLoader)#") == kSteps);
  const analyzer::Diagnostic* sl101 = t.finding("SL101");
  REQUIRE(sl101 != nullptr);
  const double fraction = sl101->evidence.metric("dataloader_fraction", -1);
  INFO("dataloader_fraction " << fraction << ": " << sl101->message);
  // 100 samples x (60 us sleep + a few small ops) against a ~1-3 ms MLP step on CPU.
  CHECK(fraction > 0.3);
  CHECK(fraction < 1.0);
}

TEST_CASE("slow sample: host syncs are aten::item over a flagged _local_scalar_dense once per step",
          "[torch]") {
  const LintedTrace& t = slowMarked();
  INFO(notes(t));
  REQUIRE(t.model.events.size() > 100);
  CHECK(t.countNamed("aten::item") == kSteps);
  CHECK(t.countNamed("aten::_local_scalar_dense") == kSteps);
  CHECK(countFlaggedHostSyncs(t.json, "aten::_local_scalar_dense") == kSteps);
  CHECK(countFlaggedHostSyncs(t.json, "aten::item") == 0);
}

TEST_CASE("slow sample: ops, backward nodes and torch metadata are recorded", "[torch]") {
  const LintedTrace& t = slowMarked();
  INFO(notes(t));
  CHECK(t.countNamed("aten::addmm") == 3 * kSteps);
  CHECK(t.countNamed("AddmmBackward0") == 3 * kSteps);
  // 1.13 zero_grad() detaches and zeroes each of the 6 gradients (no set_to_none)
  CHECK(t.countNamed("aten::detach_") >= 6 * (kSteps - 1));
  bool has_version = false, benchmark_off = false;
  for (const auto& [key, raw] : t.model.metadata.extra) {
    has_version |= key == "torch_version";
    benchmark_off |= key == "cudnn_benchmark" && raw == "false";
  }
  CHECK(has_version);
  CHECK(benchmark_off);
}

TEST_CASE("fast sample: no DataLoader finding and no per-step host sync", "[torch]") {
  const LintedTrace& t = fastMarked();
  INFO(notes(t));
  REQUIRE(t.model.events.size() > 100);
  CHECK(countPrefixed(t.model, "ProfilerStep#") == kSteps);
  CHECK_FALSE(t.notChecked("SL101"));
  CHECK(t.finding("SL101") == nullptr);
  CHECK(t.countNamed("aten::_local_scalar_dense") == 1);  // the final loss read only
  // Gradients are set to None, not zeroed (torch 2.x's zero_grad(true) still detach_es them
  // first; 1.13's sample drops them by hand), so no aten::zero_ runs inside zero_grad.
  CHECK(countPrefixed(t.model, "Optimizer.zero_grad#") == kSteps);
  CHECK(countInside(t.model, "aten::zero_", "Optimizer.zero_grad#") == 0);
  CHECK(t.finding("SL601") == nullptr);
}

TEST_CASE("settings made in main() after the preload started are read at a step boundary",
          "[torch]") {
  // The preload starts the session before main(), where the fast sample turns cudnn.benchmark
  // on; the trainer then returns from main, so the session stops inside exit(), which reads
  // nothing from torch (its lazily built statics may be gone; recorder.h, processExiting).
  // Marked steps and live iterations are both boundaries.
  for (const LintedTrace* t :
       {&fastMarked(), &recordSample("fast_unmarked", {FAST_TRAINER, "--steps", "6"})}) {
    std::string benchmark;
    for (const auto& [key, raw] : t->model.metadata.extra)
      if (key == "cudnn_benchmark") benchmark = raw;
    CHECK(benchmark == "true");
  }
}

TEST_CASE("unmarked sample: recorded without code changes, no ProfilerStep ranges", "[torch]") {
  const LintedTrace& t = recordSample("slow_unmarked", {SLOW_TRAINER, "--steps", "6"});
  INFO(notes(t));
  REQUIRE(t.model.events.size() > 100);
  CHECK(countPrefixed(t.model, "ProfilerStep#") == 0);
  CHECK(t.countNamed("aten::addmm") == 3 * 6);
}

TEST_CASE("unmarked sample under a schedule: iterations are counted live, the active ones kept",
          "[torch]") {
  // 2 wait, 1 warmup, 3 active, once. Boundaries fall on the first top-level op after each
  // backward pass, so the active window holds exactly three forward passes.
  const LintedTrace& t = recordSample("slow_unmarked_schedule", {SLOW_TRAINER, "--steps", "12"},
                                      {{"STEPLINT_SCHEDULE", "2,1,3,1"}});
  INFO(notes(t));
  REQUIRE(t.model.events.size() > 100);
  CHECK(t.countNamed("aten::addmm") == 3 * 3);
  // Each captured iteration is a step, as prof.step() would write it: the last one too, whose
  // end (the next optimizer op) lies outside the window.
  CHECK(countPrefixed(t.model, "ProfilerStep#") == 3);
  for (const char* step : {"ProfilerStep#3", "ProfilerStep#4", "ProfilerStep#5"})
    CHECK(t.countNamed(step) == 1);
  CHECK(t.summary.steps.steps.size() == 3);
}

TEST_CASE("SIGINT to a recorded trainer still yields a valid trace", "[torch]") {
  const std::string trace = scratchPath("sigint.pt.trace.json");
  const std::string log = scratchPath("sigint.log");
  const pid_t pid = startProcess(
      {SLOW_TRAINER, "--steps", "100000", "--steplint-steps", "--sleep-after-step-ms", "20"},
      recordEnv(trace), log);
  // Interrupt once the flushed "<trace>.partial" shows step 3 (the writer flushes every
  // second), not after a fixed delay: libtorch's start-up time varies a lot between machines.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (readFile(trace + ".partial").find("ProfilerStep#3\"") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(pid, SIGINT);
  const int rc = waitProcess(pid);
  INFO("exit " << rc << "\n" << readFile(log));
  CHECK((rc == 130 || rc == 0));
  REQUIRE(std::filesystem::exists(trace));
  LintedTrace t;
  std::string error;
  REQUIRE(lintTrace(trace, t, &error));
  CHECK(countPrefixed(t.model, "ProfilerStep#") >= 3);
  CHECK(t.countNamed("aten::addmm") >= 9);
}

}  // namespace steplint::e2e
