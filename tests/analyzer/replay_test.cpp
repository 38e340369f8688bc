// The step replay (replay.h): it reproduces the observed steps, and a fix saves what the
// physics of the host/GPU pipeline says it saves.
#include <catch2/catch.hpp>

#include <random>

#include "kineto_trace.h"
#include "replay_internal.h"
#include "steplint/analyzer/lint.h"
#include "steplint/analyzer/profiler_overhead.h"
#include "steplint/analyzer/replay.h"
#include "steplint/analyzer/summary.h"
#include "test_model.h"

using steplint::analyzer::computeFixSavings;
using steplint::analyzer::computeSteps;
using steplint::analyzer::FixEffect;
using steplint::analyzer::Interval;
using steplint::analyzer::IntervalSet;
using steplint::analyzer::ProfilerOverhead;
using steplint::analyzer::ReplayScenario;
using steplint::analyzer::StepReplay;
using steplint::test::TestTrace;
using steplint::trace::EventKind;
using steplint::trace::TraceModel;

namespace {

constexpr double kMs = 1000;  // TestTrace takes µs
constexpr const char* kLoader = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";

/// Every event named `name`, as an interval set of its host time.
IntervalSet rangesNamed(const TraceModel& model, std::string_view name) {
  std::vector<Interval> out;
  for (const auto& e : model.events)
    if (model.name(e) == name) out.push_back({e.start_ns, e.end_ns()});
  return IntervalSet::fromUnsorted(std::move(out));
}

std::vector<uint32_t> eventsNamed(const TraceModel& model, std::string_view name) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < model.events.size(); ++i)
    if (model.name(model.events[i]) == name) out.push_back(i);
  return out;
}

/// A fix that shortens the host time of the events named `name` to `factor` of it.
FixEffect hostFix(const TraceModel& model, std::string_view name, double factor) {
  FixEffect fix;
  fix.host_time = rangesNamed(model, name);
  fix.host_factor = factor;
  return fix;
}

/// A fix that shortens the device ops named `name` to `factor` of their time.
FixEffect deviceFix(const TraceModel& model, std::string_view name, double factor) {
  FixEffect fix;
  fix.device_ops = eventsNamed(model, name);
  fix.device_factor = factor;
  return fix;
}

/// A fix that removes the waits of the calls named `name`.
FixEffect waitFix(const TraceModel& model, std::string_view name) {
  FixEffect fix;
  fix.waits = eventsNamed(model, name);
  return fix;
}

/// `count` steps of 10 ms from ProfilerStep#0, each filled by `body(trace, step_start_us)`;
/// finalized.
template <class Body>
TestTrace tenMsSteps(int count, Body body) {
  TestTrace t;
  steplint::test::forEachStep<0>(t, count, 10 * kMs, [&](int, double at) { body(t, at); });
  t.finalize();
  return t;
}

/// A stream sync call waiting for everything launched before it (its own correlation).
void streamSync(TestTrace& t, double ts, double dur) {
  t.event(EventKind::kRuntime, "cudaStreamSynchronize", ts, dur);
}

/// Per step (period p ms): DataLoader wait [0, 3), a 9 ms kernel launched at 3, host work until
/// 4, then loss.item()'s sync until the kernel ends, then 0.1 ms of host work.
TestTrace dataThenKernelThenSync(int steps) {
  TestTrace t;
  double at = 0;
  for (int n = 0; n < steps; ++n) {
    const double kernel_start = at + 3 * kMs + 20;
    const double kernel_end = kernel_start + 9 * kMs;
    const double step_end = kernel_end + 0.1 * kMs;
    t.step(n, at, step_end - at);
    t.annotation(kLoader, at, 3 * kMs);
    t.launch(at + 3 * kMs, 10, kernel_start, 9 * kMs, "gemm");
    streamSync(t, at + 4 * kMs, kernel_end + 5 - (at + 4 * kMs));
    at = step_end;
  }
  t.finalize();
  return t;
}

}  // namespace

TEST_CASE("replay: unchanged, it reproduces the observed steps") {
  TestTrace t = dataThenKernelThenSync(5);
  const auto steps = computeSteps(t.model);
  REQUIRE(steps.steps.size() == 5);
  const StepReplay replay(t.model, steps, {});
  REQUIRE(replay.valid());
  CHECK(replay.windowSteps() == 5);
  CHECK(replay.replayWindowNs(0) == Approx(replay.observedStepNs() * 5).epsilon(1e-9));
  CHECK(replay.replayStepNs(0) == Approx(replay.observedStepNs()).epsilon(0.01));
  CHECK(replay.observedStepNs() == Approx(12.12e6).margin(0.05e6));
}

TEST_CASE("replay: ops launched before the recording run ahead of the launches it holds") {
  // The host ran far ahead of the GPU: 24 ms of kernels launched before the recording began
  // (their calls are not in the trace; CUPTI numbered them below its first call) still fill
  // the stream, so the kernels the first steps launch queue behind them.
  TestTrace t;
  for (int k = 0; k < 4; ++k)
    t.orphanKernel((1 + 6 * k) * kMs, 6 * kMs, "launched_long_before", TestTrace::kStream,
                   TestTrace::kDevice, /*correlation=*/5 + k);
  for (int n = 0; n < 6; ++n) {
    const double at = 10 * kMs * n;
    // Steps 0-2 launch behind the early kernels (which end at 25 ms), later ones at once.
    const double kernel_start = n < 3 ? (25 + n) * kMs : at + 0.1 * kMs + 20;
    t.step(n, at, 10 * kMs);
    t.launch(at + 0.1 * kMs, 10, kernel_start, 1 * kMs, "queued_kernel");
    // Another stream runs at once: the steps start at their host start.
    t.launch(at + 0.15 * kMs, 10, at + 0.2 * kMs, 0.5 * kMs, "prompt_kernel", EventKind::kKernel,
             EventKind::kRuntime, TestTrace::kStream + 1);
    t.op("host_work", at + 0.2 * kMs, 9 * kMs);
  }
  t.finalize();
  const auto steps = computeSteps(t.model);
  REQUIRE(steps.steps.size() >= 4);
  REQUIRE(steps.steps.front().start_ns == 0);  // the early kernels are inside the window
  const StepReplay replay(t.model, steps, {});
  REQUIRE(replay.valid());
  // Launched at their start instead, the early kernels queued behind the first step's kernel
  // and every later op slipped: a replayed window far longer than the recorded one.
  CHECK(replay.replayWindowNs(0) ==
        Approx(replay.observedStepNs() * static_cast<double>(replay.windowSteps())).epsilon(1e-9));
}

namespace {

/// The savings of one finding that removes the DataLoader waits of `t`, as runLint attributes
/// them.
steplint::analyzer::SavingsTotal loaderFixSavings(const TestTrace& t,
                                                  steplint::analyzer::Diagnostic& finding) {
  const steplint::analyzer::TraceSummary summary = steplint::analyzer::summarize(t.model);
  const steplint::analyzer::AnalysisContext context(t.model, summary);
  finding.effect = std::make_shared<FixEffect>(hostFix(t.model, kLoader, 0));
  std::vector<steplint::analyzer::Diagnostic> findings = {finding};
  const auto total = steplint::analyzer::attributeSavings(context, findings);
  finding = findings.front();
  return total;
}

}  // namespace

TEST_CASE("savings: withheld when the unchanged replay does not give the recorded steps back") {
  // Two threads launch onto one stream; the call that started first enqueued last (its kernel
  // ran second). The replay queues ops in the order their calls started, so its unchanged
  // window is far longer than the recorded one: no saving drawn from it is given.
  TestTrace t;
  for (int n = 0; n < 4; ++n) {
    const double at = 40 * kMs * n;
    t.step(n, at, 40 * kMs);
    t.annotation(kLoader, at, 2 * kMs);
    t.launch(at + 3 * kMs, 2 * kMs, at + 30 * kMs, 1 * kMs, "second");
    t.launch(at + 4 * kMs, 0.01 * kMs, at + 5 * kMs, 25 * kMs, "first");
    t.op("host_work", at + 5.1 * kMs, 34 * kMs);
  }
  t.finalize();
  steplint::analyzer::Diagnostic finding;
  finding.code = "SL101";
  const auto total = loaderFixSavings(t, finding);
  CHECK(total.per_step_ms < 0);
  CHECK(total.not_estimated.rfind("not estimated: the replay of the kept steps", 0) == 0);
  CHECK_FALSE(finding.saving.known());
  CHECK(finding.saving.method == total.not_estimated);

  // The same finding on a trace the replay reproduces gets its saving.
  TestTrace good = dataThenKernelThenSync(6);
  steplint::analyzer::Diagnostic kept;
  const auto estimated = loaderFixSavings(good, kept);
  CHECK(estimated.not_estimated.empty());
  CHECK(estimated.per_step_ms > 0);
  CHECK(kept.saving.known());
}

TEST_CASE("savings: withheld when the steady state runs less device work than the trace holds") {
  // The host ran ahead of its GPU: a 19.9 ms kernel from before the steps fills the stream, and
  // each step's 9 ms kernel was launched in its first millisecond, long before that step began
  // (steps start when the GPU gets to them). The first pass places those ops as recorded;
  // later passes lose them, so the steady state would come out far below the 9 ms per step
  // that the stream runs.
  TestTrace t;
  t.launch(0, 0.01 * kMs, 0, 19.9 * kMs, "earlier_kernel");
  for (int n = 0; n < 5; ++n) {
    const double at = (1 + n) * kMs;
    t.step(n, at, 0.9 * kMs);
    t.annotation(kLoader, at, 0.1 * kMs);
    t.launch(at + 0.2 * kMs, 0.01 * kMs, (20 + 9 * n) * kMs, 9 * kMs, "step_kernel");
  }
  t.finalize();
  steplint::analyzer::Diagnostic finding;
  finding.code = "SL101";
  const auto total = loaderFixSavings(t, finding);
  CHECK(total.per_step_ms < 0);
  CHECK(total.not_estimated.find("less than the 9.0 ms of device work one queue holds per step") !=
        std::string::npos);
  CHECK(finding.saving.method == total.not_estimated);
}

TEST_CASE(
    "replay: a sync that serialises the loader with the GPU: each fix alone and both together") {
  TestTrace t = dataThenKernelThenSync(8);
  const auto steps = computeSteps(t.model);
  FixEffect loader;
  loader.host_time = rangesNamed(t.model, kLoader);
  loader.host_factor = 0;
  FixEffect sync;
  sync.waits = eventsNamed(t.model, "cudaStreamSynchronize");
  const StepReplay replay(t.model, steps, {loader, sync});
  const auto savings = computeFixSavings(replay);
  REQUIRE(savings.alone_ns.size() == 2);
  // Alone, the loader fix removes its 3 ms: the sync keeps host and GPU serial.
  CHECK(savings.alone_ns[0] == Approx(3e6).margin(0.05e6));
  // Alone, removing the sync lets the next step's 3 ms loader wait overlap the 9 ms kernel:
  // the GPU becomes the bottleneck (9 ms + launch), so about 3 ms per step too.
  CHECK(savings.alone_ns[1] == Approx(3.1e6).margin(0.1e6));
  // Both: the GPU is busy all the time; the step is the kernel.
  CHECK(savings.step_ns - savings.all_ns == Approx(9e6).margin(0.3e6));
  CHECK(savings.share_ns[0] + savings.share_ns[1] == Approx(savings.all_ns).epsilon(1e-9));
  CHECK(savings.all_ns <= savings.step_ns);
}

TEST_CASE("replay: a faster kernel saves nothing when the host is the bottleneck") {
  const TestTrace t = tenMsSteps(6, [](TestTrace& s, double at) {
    s.op("aten::slow_host_work", at, 9 * kMs);
    s.launch(at + 9 * kMs, 10, at + 9 * kMs + 20, 0.5 * kMs, "small_kernel");
  });
  const auto steps = computeSteps(t.model);
  FixEffect faster_kernel;
  faster_kernel.device_ops = eventsNamed(t.model, "small_kernel");
  faster_kernel.device_factor = 0.5;
  FixEffect faster_host;
  faster_host.host_time = rangesNamed(t.model, "aten::slow_host_work");
  faster_host.host_factor = 0.5;
  const StepReplay replay(t.model, steps, {faster_kernel, faster_host});
  const auto savings = computeFixSavings(replay);
  CHECK(savings.alone_ns[0] == Approx(0).margin(1e3));
  CHECK(savings.alone_ns[1] == Approx(4.5e6).margin(0.01e6));
}

TEST_CASE("replay: CPU-only steps are additive") {
  const TestTrace t = tenMsSteps(4, [](TestTrace& s, double at) {
    s.annotation(kLoader, at, 4 * kMs);
    s.op("aten::copy_", at + 5 * kMs, 1 * kMs);
  });
  const auto steps = computeSteps(t.model);
  FixEffect loader;
  loader.host_time = rangesNamed(t.model, kLoader);
  loader.host_factor = 0;
  FixEffect copy;
  copy.host_time = rangesNamed(t.model, "aten::copy_");
  copy.host_factor = 0;
  const auto savings = computeFixSavings(StepReplay(t.model, steps, {loader, copy}));
  CHECK(savings.share_ns[0] == Approx(4e6));
  CHECK(savings.share_ns[1] == Approx(1e6));
  CHECK(savings.all_ns == Approx(5e6));
}

TEST_CASE("replay: a blocking copy call is a launch and a wait") {
  const TestTrace t = tenMsSteps(5, [](TestTrace& s, double at) {
    // Pageable copy: the call returns only after the 4 ms copy ends.
    s.launch(at + 1 * kMs, 4.2 * kMs, at + 1 * kMs + 100, 4 * kMs,
             "Memcpy HtoD (Pageable -> Device)", EventKind::kMemcpy);
    s.op("aten::host_work", at + 5.3 * kMs, 4 * kMs);
  });
  const auto steps = computeSteps(t.model);
  FixEffect async_copy;
  for (uint32_t i = 0; i < t.model.events.size(); ++i)
    if (t.model.events[i].kind == EventKind::kRuntime) async_copy.waits.push_back(i);
  const auto savings = computeFixSavings(StepReplay(t.model, steps, {async_copy}));
  // Without the wait the copy overlaps the host work that follows it.
  CHECK(savings.alone_ns[0] == Approx(4e6).margin(0.2e6));
}

TEST_CASE(
    "replay: randomised traces — fixes never slow a step, shares add up, nothing exceeds the step") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  for (int round = 0; round < 60; ++round) {
    TestTrace t;
    double at = 0;
    double gpu_free = 0;
    const int steps_n = 3 + static_cast<int>(u(rng) * 5);
    for (int n = 0; n < steps_n; ++n) {
      const double begin = at;
      at += u(rng) * 2 * kMs;  // loader
      t.annotation(kLoader, begin, at - begin + 1);
      const int launches = 1 + static_cast<int>(u(rng) * 6);
      for (int k = 0; k < launches; ++k) {
        at += u(rng) * 0.5 * kMs;
        const double op_start = std::max(at + 5, gpu_free);
        const double op_dur = u(rng) * 3 * kMs + 1;
        t.launch(at, 5, op_start, op_dur, k % 2 ? "gemm" : "elementwise");
        gpu_free = op_start + op_dur;
        at += 5;
        if (u(rng) < 0.3) {
          const double wait_end = std::max(at + 2, gpu_free + 3);
          streamSync(t, at, wait_end - at);
          at = wait_end;
        }
      }
      at += u(rng) * kMs;
      t.op("aten::optimizer_work", at, 0.3 * kMs);
      at += 0.3 * kMs + 1;
      t.step(n, begin, at - begin);
    }
    t.finalize();
    const auto steps = computeSteps(t.model);
    if (steps.steps.empty()) continue;
    const StepReplay replay(
        t.model, steps,
        {hostFix(t.model, kLoader, 0), deviceFix(t.model, "gemm", 0.4),
         waitFix(t.model, "cudaStreamSynchronize"), hostFix(t.model, "aten::optimizer_work", 0.2)});
    INFO("round " << round);
    CHECK(
        replay.replayWindowNs(0) ==
        Approx(replay.observedStepNs() * static_cast<double>(replay.windowSteps())).epsilon(1e-6));
    for (uint64_t s = 0; s < 16; ++s)
      for (uint64_t bit = 1; bit < 16; bit <<= 1)
        CHECK(replay.replayStepNs(s | bit) <= replay.replayStepNs(s) + 1e-3);
    // Masks replayed side by side give each mask's figure alone, to the bit (any order, any
    // count: a batch of 8 and a rest of 5).
    const std::vector<uint64_t> masks = {15, 0, 3, 8, 1, 14, 6, 9, 2, 12, 5, 7, 4};
    for (const ReplayScenario scenario : {ReplayScenario{}, ReplayScenario{true, false}}) {
      std::vector<double> together(masks.size(), -1);
      replay.replayStepsNs(masks.data(), masks.size(), scenario, together.data());
      for (size_t k = 0; k < masks.size(); ++k)
        CHECK(together[k] == replay.replayStepNs(masks[k], scenario));
    }
    const auto savings = computeFixSavings(replay);
    double sum = 0;
    for (double share : savings.share_ns) {
      CHECK(share >= -1e-3);
      sum += share;
    }
    CHECK(sum == Approx(savings.all_ns).margin(1e-3));
    CHECK(savings.all_ns <= savings.step_ns + 1e-3);
  }
}

TEST_CASE(
    "replay: the profiler's cost per recorded host event is taken out before a fix is credited") {
  // Each 10 ms step: a 4 ms DataLoader range holding 999 recorded 3 µs ops (1000 events with the
  // range itself), then one op. At 1 µs of recording cost per event the loader took 3 ms
  // unprofiled and the step 8.999 ms.
  const TestTrace t = tenMsSteps(4, [](TestTrace& s, double at) {
    s.annotation(kLoader, at, 4 * kMs);
    for (int k = 0; k < 999; ++k) s.op("aten::sample_op", at + 1 + 4 * k, 3);
    s.op("aten::train_op", at + 5 * kMs, 1 * kMs);
  });
  const auto steps = computeSteps(t.model);
  FixEffect loader;
  loader.host_time = rangesNamed(t.model, kLoader);
  loader.host_factor = 0;
  const StepReplay replay(t.model, steps, {loader}, ProfilerOverhead{1000, 1000, ""});
  // The step thread's events: the step range, 1000 in the loader, one op.
  CHECK(replay.replayStepNs(0) == Approx(10e6 - 1002e3).margin(1e3));
  CHECK(replay.replayStepNs(0, {false, /*keep_overhead=*/true}) == Approx(10e6).margin(1e3));
  const auto savings = computeFixSavings(replay);
  CHECK(savings.alone_ns[0] == Approx(3e6).margin(2e3));  // the loader without its recording cost
  CHECK(savings.recorded_step_ns - savings.step_ns == Approx(1002e3).margin(1e3));
  // The low end is the lower of the scenarios: leaving the recording in would credit the fix
  // 4 ms of a 10 ms step (3.6 ms of the 8.998 ms one), so the corrected 3 ms stays the low end.
  CHECK(savings.alone_low_ns[0] == Approx(3e6).margin(2e3));
  CHECK(savings.share_low_ns[0] <= savings.share_ns[0] + 1);
}

TEST_CASE(
    "profiler overhead: measured by steplint, estimated for torch.profiler, nothing for older steplint") {
  using steplint::analyzer::profilerOverhead;
  TraceModel measured;
  measured.metadata.extra = {{"steplint_version", "\"0.1.0\""},
                             {"steplint_op_overhead_ns", "812"},
                             {"steplint_op_overhead_samples", "4096"}};
  CHECK(profilerOverhead(measured).per_event_ns == Approx(812));
  CHECK(profilerOverhead(measured).source.find(
            "812 ns, measured by steplint's collector over 4096") != std::string::npos);
  TraceModel older;
  older.metadata.extra = {{"steplint_version", "\"0.1.0\""}};
  CHECK(profilerOverhead(older).per_event_ns == 0);
  TraceModel kineto;
  CHECK(profilerOverhead(kineto).per_event_ns == Approx(steplint::analyzer::kTorchProfilerEventNs));
  for (const char* bad : {"-5", "nan", "1e300", "\"x\""}) {
    TraceModel garbage;
    garbage.metadata.extra = {{"steplint_op_overhead_ns", bad}};
    INFO(bad);
    CHECK(profilerOverhead(garbage).per_event_ns ==
          Approx(steplint::analyzer::kTorchProfilerEventNs));
  }
}

TEST_CASE("replay: the savings are the same on one thread and on several, exact and sampled") {
  // Twelve host phases per step, each a fix of its own: more fixes than kExactShapleyFixes, so
  // the shares come from sampled orders; the first eight alone take the exact path.
  constexpr int kPhases = 12;
  static_assert(kPhases > static_cast<int>(steplint::analyzer::kExactShapleyFixes));
  const TestTrace t = tenMsSteps(6, [](TestTrace& s, double at) {
    for (int k = 0; k < kPhases; ++k)
      s.op("aten::phase_" + std::to_string(k), at + 100 + 700 * k, 200 + 40 * k);
  });
  const auto steps = computeSteps(t.model);
  std::vector<FixEffect> fixes;
  for (int k = 0; k < kPhases; ++k) {
    FixEffect fix;
    fix.host_time = rangesNamed(t.model, "aten::phase_" + std::to_string(k));
    fix.host_factor = 0.5;
    fixes.push_back(fix);
  }
  for (size_t n : {size_t{8}, size_t{kPhases}}) {
    INFO(n << " fixes");
    const StepReplay replay(t.model, steps, {fixes.begin(), fixes.begin() + n});
    const auto one = computeFixSavings(replay, 1);
    const auto four = computeFixSavings(replay, 4);
    CHECK(one.exact_shares == (n <= steplint::analyzer::kExactShapleyFixes));
    CHECK(one.share_ns == four.share_ns);  // bit for bit: the same sums in the same order
    CHECK(one.alone_ns == four.alone_ns);
    CHECK(one.all_ns == four.all_ns);
    double sum = 0;
    for (double share : one.share_ns) {
      CHECK(share > 0);
      sum += share;
    }
    CHECK(sum == Approx(one.all_ns).margin(1e-3));
    CHECK(one.all_ns > 0);
  }
}

TEST_CASE("profiler overhead: CUPTI's overhead records by name, its own work apart from CUDA's") {
  using steplint::analyzer::profilerCostPerStep;
  // Two 10 ms steps; a 2 ms buffer request inside the first, one straddling the end of the
  // second (1 ms inside), module loading before the steps (CUDA's work, not the profiler's).
  TestTrace u;
  steplint::test::forEachStep<0>(u, 2, 10 * kMs,
                                 [&](int, double at) { u.op("aten::work", at + 100, 5000); });
  u.event(EventKind::kOverhead, "Runtime Triggered Module Loading", -5 * kMs, 3 * kMs, -1, 0);
  u.event(EventKind::kOverhead, "Activity Buffer Request", 2 * kMs, 2 * kMs, -1, 0);
  u.event(EventKind::kOverhead, "Activity Buffer Request", 19 * kMs, 2 * kMs, -1, 0);
  u.finalize();
  const auto steps = computeSteps(u.model);
  REQUIRE(steps.steps.size() == 2);
  const auto cost = profilerCostPerStep(u.model, steps);
  REQUIRE(cost.cupti_records.size() == 2);
  const auto& request = cost.cupti_records[0];  // the longest first
  CHECK(request.name == "Activity Buffer Request");
  CHECK(steplint::analyzer::isCuptiOwnOverhead(request.name));
  CHECK(request.count == 2);
  CHECK(request.total_ns == 4'000'000);
  CHECK(request.in_steps_ns == 3'000'000);
  const auto& loading = cost.cupti_records[1];
  CHECK(loading.name == "Runtime Triggered Module Loading");
  CHECK_FALSE(steplint::analyzer::isCuptiOwnOverhead(loading.name));
  CHECK(loading.in_steps_ns == 0);
}

TEST_CASE("replay: the items counted before the build are the items built") {
  // StepReplay picks its window from the count; the count must be what the build makes, or the
  // window (and every saving) would differ from building the whole program to measure it.
  const TestTrace t = dataThenKernelThenSync(5);
  const auto steps = computeSteps(t.model);
  REQUIRE(steps.steps.size() == 5);
  const FixEffect loader = hostFix(t.model, kLoader, 0);
  const std::vector<std::vector<FixEffect>> fix_sets = {
      {},
      {loader},
      {loader, waitFix(t.model, "cudaStreamSynchronize"), deviceFix(t.model, "gemm", 0.5)}};
  for (size_t f = 0; f < fix_sets.size(); ++f) {
    for (auto [first, last] : {std::pair<size_t, size_t>{0, 5}, {1, 4}, {2, 3}}) {
      INFO("fixes " << f << ", steps [" << first << ", " << last << ")");
      const auto built =
          steplint::analyzer::buildReplayProgram(t.model, steps, first, last, fix_sets[f]);
      CHECK(built.items.size() > 0);
      CHECK(steplint::analyzer::countReplayItems(t.model, steps, first, last, fix_sets[f]) ==
            built.items.size());
    }
  }
}

TEST_CASE("replay: savings do not depend on the clock's origin (epoch-ns traces)") {
  // Kineto before baseTimeNanoseconds wrote epoch µs: ~1.7e18 ns, where doubles are 256 ns
  // apart. The replay held absolute times as doubles and rounded every max and add there, so
  // the same trace gave other savings with its clock moved (1.2 % on a ResNet-50 fixture).
  TestTrace t = dataThenKernelThenSync(5);
  TestTrace later = dataThenKernelThenSync(5);
  TraceModel& shifted = later.model;
  constexpr int64_t kEpoch = 1'700'000'000'123'456'789;
  for (auto& e : shifted.events) e.start_ns += kEpoch;
  const auto steps = computeSteps(t.model);
  const auto shifted_steps = computeSteps(shifted);
  REQUIRE(shifted_steps.steps.size() == steps.steps.size());
  const std::vector<FixEffect> fixes = {hostFix(t.model, kLoader, 0.0),
                                        deviceFix(t.model, "gemm", 0.5)};
  std::vector<FixEffect> shifted_fixes = {hostFix(shifted, kLoader, 0.0),
                                          deviceFix(shifted, "gemm", 0.5)};
  const StepReplay replay(t.model, steps, fixes);
  const StepReplay moved(shifted, shifted_steps, shifted_fixes);
  REQUIRE(replay.valid());
  REQUIRE(moved.valid());
  for (uint64_t mask = 0; mask < 4; ++mask) {
    INFO("fixes " << mask);
    CHECK(moved.replayStepNs(mask) == replay.replayStepNs(mask));
    CHECK(moved.replayWindowNs(mask) == replay.replayWindowNs(mask));
  }
  CHECK(replay.replayStepNs(1) < replay.replayStepNs(0) - 2.9e6);  // the loader's 3 ms
}
