#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

constexpr const char* kSingle = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
constexpr const char* kMulti = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__";

// Three 10 ms steps: the DataLoader for `loader_us`, then model ops; with `gpu`, each step
// also runs a 2 ms kernel after the loader.
std::string loaderSteps(double loader_us, const char* loader = kSingle, bool gpu = false,
                        int cpu_cores = 0, int workers = -1) {
  KinetoTrace t;
  if (cpu_cores > 0) t.metadata("cpu_cores", std::to_string(cpu_cores));
  if (workers >= 0) t.metadata("dataloader_workers", std::to_string(workers));
  if (gpu) t.device(0).device(1);
  forEachStep(t, 3, 10000, [&](int, double b) {
    t.annotation(loader, b + 10, loader_us);
    t.op("aten::conv2d", b + 20 + loader_us, 5000);
    if (gpu) t.kernel(b + 30 + loader_us, 10, b + 100 + loader_us, 2000);
  });
  return t.str();
}

TEST_CASE("SL101: 40% of the step in the DataLoader is flagged with a worker count",
          "[rules][SL101]") {
  const RuleRun run = runRuleOnJson("SL101", loaderSteps(4000));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "40.0% of step time (4.0 ms/step) waiting for the DataLoader (single-process loader: "
        "num_workers=0)");
  CHECK(d.saving.per_step_ms == Approx(4.0).margin(1e-6));
  CHECK(d.saving.fraction_of_step == Approx(0.4).margin(1e-6));
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
  CHECK(d.evidence.events.size() == 3);
  CHECK(d.evidence.metric("recommended_workers") == Approx(4));
  CHECK(d.fix[0].find("DataLoaderOptions().batch_size(B).workers(4)") != std::string::npos);
  CHECK(d.fix[1] ==
        "Python: DataLoader(..., num_workers=4, persistent_workers=True) (no GPU in the trace: the "
        "workers share the CPU cores with the training, up to the number of CPU cores)");
  CHECK(d.fingerprint_key == "dataloader");
}

TEST_CASE("SL101: the worker count scales with the GPUs used and is capped by cpu-cores",
          "[rules][SL101]") {
  // Kernels run on one device although two are listed: 1 GPU used.
  const RuleRun gpu =
      runRuleOnJson("SL101", loaderSteps(4000, kMulti, true), {{"cpu-cores", int64_t{3}}});
  REQUIRE(gpu.diagnostics.size() == 1);
  CHECK(gpu.diagnostics[0].message.find("(multi-process loader)") != std::string::npos);
  CHECK(gpu.diagnostics[0].evidence.metric("gpus_used") == Approx(1));
  CHECK(gpu.diagnostics[0].evidence.metric("recommended_workers") == Approx(2));  // min(4, 3 - 1)
  CHECK(gpu.diagnostics[0].fix[0].rfind("raise num_workers to 2 if it is lower (4 per GPU x 1 GPU "
                                        "used, at most cpu-cores - 1 = 2)",
                                        0) == 0);
}

TEST_CASE("SL101: the advice starts from the worker count the trace records", "[rules][SL101]") {
  // h6 D4: 2 workers on 2 cores, CPU only. The advice was "raise num_workers to 1 (4 per GPU x
  // 1 GPU used, ...)": a decrease, and no GPU in the trace.
  const RuleRun cpu = runRuleOnJson("SL101", loaderSteps(4000, kMulti, false, 2, 2));
  REQUIRE(cpu.diagnostics.size() == 1);
  const auto& d = cpu.diagnostics[0];
  CHECK(d.fix[0] ==
        "num_workers=2 already wants more cores than the host has (2 workers + the training "
        "process on 2 CPU cores, SL102): lower it to 1 and make each batch cheaper to load");
  for (const std::string& fix : d.fix) CHECK(fix.find("GPU") == std::string::npos);
  CHECK(d.evidence.metric("dataloader_workers") == Approx(2));
  CHECK(d.evidence.metric("recommended_workers") == Approx(1));
  CHECK(d.saving.method.find("the 2 workers also compete with the training thread for the 2 CPU "
                             "cores (SL102), which is not counted") != std::string::npos);

  const RuleRun few = runRuleOnJson("SL101", loaderSteps(4000, kMulti, true, 16, 1));
  REQUIRE(few.diagnostics.size() == 1);
  CHECK(few.diagnostics[0].fix[0].rfind(
            "raise num_workers from 1 to 4 (4 per GPU x 1 GPU used, at most cpu-cores - 1 = 15)",
            0) == 0);
  CHECK(few.diagnostics[0].saving.method.find("compete") == std::string::npos);

  const RuleRun enough = runRuleOnJson("SL101", loaderSteps(4000, kMulti, true, 16, 6));
  REQUIRE(enough.diagnostics.size() == 1);
  CHECK(enough.diagnostics[0].fix[0].rfind("keep num_workers=6 (at least the 4 suggested", 0) == 0);
}

// The breakdown leaves out the wait the previous step's kernels overlap; the replay removes
// the whole wait, so the message quotes both and the saving stays within the larger.
TEST_CASE("SL101: a wait overlapped by GPU work quotes the training thread's whole wait",
          "[rules][SL101]") {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 3, 10000, [&](int, double b) {
    t.annotation(kSingle, b + 10, 4000);
    t.op("aten::conv2d", b + 4020, 100);
    // Launched at the end of the step, the kernel runs 1 ms into the next step's wait.
    t.kernel(b + 9000, 10, b + 9100, 1900);
  });
  const RuleRun run = runRuleOnJson("SL101", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  const double breakdown_ms = d.evidence.metric("dataloader_ms_per_step");
  const double host_ms = d.evidence.metric("host_wait_ms_per_step");
  CHECK(host_ms == Approx(4.0).margin(1e-6));
  CHECK(breakdown_ms == Approx(4.0 - 2.0 / 3.0).margin(0.01));  // steps 2 and 3 overlap 1 ms
  CHECK(
      d.message.find("; 4.0 ms/step counting the 0.7 ms that overlap GPU work or runtime calls") !=
      std::string::npos);
  CHECK(d.saving.per_step_ms > breakdown_ms);
  CHECK(d.saving.per_step_ms <= host_ms + 1e-6);
}

TEST_CASE("SL101: a short DataLoader wait is not flagged", "[rules][SL101]") {
  CHECK(runRuleOnJson("SL101", loaderSteps(400)).diagnostics.empty());  // 4%
  CHECK(
      runRuleOnJson("SL101", loaderSteps(400), {{"min-wait-fraction", 0.03}}).diagnostics.size() ==
      1);
}

TEST_CASE("SL101: a trace without steps is one step, and the savings say so (h6 D10)",
          "[rules][SL101]") {
  // Two iterations without ProfilerStep ranges: too few backward passes to detect steps, so
  // the one step is the whole trace and its 8 ms of loader wait are two iterations' 4 ms.
  KinetoTrace t;
  for (int i = 0; i < 2; ++i) {
    const double b = 10000.0 * i;
    t.annotation(kSingle, b + 10, 4000);
    t.op("aten::conv2d", b + 4100, 3000);
    t.op("autograd::engine::evaluate_function: ConvolutionBackward0", b + 7200, 2000);
  }
  const RuleRun run = runRuleOnJson("SL101", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].saving.per_step_ms == Approx(8.0).margin(0.01));
  CHECK(run.saving_all.whole_trace_step);
  CHECK_FALSE(runRuleOnJson("SL101", loaderSteps(4000)).saving_all.whole_trace_step);
}

TEST_CASE("SL101: without DataLoader ranges the rule is not checked", "[rules][SL101]") {
  KinetoTrace t;
  t.step(1, 0, 1000).op("aten::mm", 10, 100);
  const RuleRun run = runRuleOnJson("SL101", t.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].rfind("no DataLoader ranges", 0) == 0);
  CHECK(run.not_checked[0].find("could not be inferred: no step shows where its training starts") !=
        std::string::npos);
}

// Three 10 ms steps of a loop recorded without DataLoader ranges: the fetch for `fetch_us`
// (ops on the training thread, or with `workers` an idle wait while thread 2 builds the batch),
// then the forward, whose aten::t creates the first autograd node: every op before it records
// the same sequence number, aten::addmm the next one.
std::string unmarkedSteps(double fetch_us, bool workers = false) {
  KinetoTrace t;
  for (int s = 0; s < 3; ++s) {
    const double b = 10000.0 * s;
    const int64_t seq = 10 * s;
    t.step(s + 1, b, 10000);
    if (workers) {
      t.op("aten::stack", b + 100, fetch_us - 200, 2);
    } else {
      t.seqOp("aten::mean", b, fetch_us / 2, seq)
          .seqOp("aten::stack", b + fetch_us / 2, fetch_us / 2, seq);
    }
    t.seqOp("aten::t", b + fetch_us, 10, seq)
        .seqOp("aten::addmm", b + fetch_us + 20, 3000, seq + 1);
  }
  return t.str();
}

TEST_CASE("SL101: without DataLoader ranges the fetch before each forward is an inferred wait",
          "[rules][SL101]") {
  const RuleRun run = runRuleOnJson("SL101", unmarkedSteps(4000));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "40.0% of step time (4.0 ms/step) waiting for the next batch, inferred: no DataLoader ranges, "
      "the part of each iteration before its training starts (the training thread runs the ops of "
      "that part itself: it loads or assembles the batches)");
  CHECK(d.evidence.metric("dataloader_inferred") == Approx(1));
  CHECK(d.evidence.metric("dataloader_ms_per_step") == Approx(4.0).margin(1e-6));
  CHECK(d.evidence.metric("worker_wait_ms_per_step") == Approx(0).margin(1e-9));
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
  CHECK(d.evidence.ranges.size() == 3);
  // The same step replay as measured waits: the inferred phases removed.
  CHECK(d.saving.per_step_ms == Approx(4.0).margin(1e-6));
  CHECK(d.saving.method.find(
            "; the wait is inferred (no DataLoader ranges): each iteration's start on the "
            "training thread until") != std::string::npos);
  CHECK(d.saving.method.find("ended by the first autograd node of the forward in 3 of 3 steps") !=
        std::string::npos);
  CHECK(d.fix[0].find(".workers(4)") != std::string::npos);
  CHECK(d.fix.back().find("steplint::DataLoaderWait") != std::string::npos);
  CHECK(d.fingerprint_key == "dataloader");
}

TEST_CASE("SL101: an inferred wait on loader worker threads asks for more workers",
          "[rules][SL101]") {
  const RuleRun run = runRuleOnJson("SL101", unmarkedSteps(4000, true));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message.find("(the training thread waits for loader worker threads)") !=
        std::string::npos);
  CHECK(d.evidence.metric("worker_wait_ms_per_step") == Approx(3.8).margin(1e-6));
  CHECK(d.fix[0].rfind("raise num_workers to 4", 0) == 0);
}

TEST_CASE("SL101: a short inferred wait is not flagged", "[rules][SL101]") {
  const RuleRun run = runRuleOnJson("SL101", unmarkedSteps(400));  // 4%
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL101: without iterations to infer from, not checked with the reason",
          "[rules][SL101]") {
  KinetoTrace t;  // no ProfilerStep, no backward pass: one whole-trace step
  t.seqOp("aten::mean", 0, 4000, 1).seqOp("aten::addmm", 4000, 1000, 2);
  const RuleRun run = runRuleOnJson("SL101", t.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find(
            "could not be inferred: the steps are not training-loop iterations (the whole "
            "trace is one step)") != std::string::npos);
}

TEST_CASE("SL101: ResNet-50 with 0 workers waits 33.4% of the step for data",
          "[rules][SL101][fixture]") {
  const RuleRun run = runRuleOnFixture("SL101", kResnetWorkers0);
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.message ==
        "33.4% of step time (59.3 ms/step) waiting for the DataLoader (single-process loader: "
        "num_workers=0); 69.3 ms/step counting the 10.0 ms that overlap GPU work or runtime calls");
  CHECK(d.evidence.metric("dataloader_fraction") == Approx(0.334).margin(0.005));
  // tb_plugin counts 59 262 µs of DataLoader time. The replay first takes out torch.profiler's
  // estimated cost per recorded host event (2 µs, docs/savings.md), which shortens the recorded
  // loader too, then removes the waits: 51.5 ms/step shorter; 57.2 with the recording's cost
  // left in, the low end of the range.
  CHECK(d.evidence.metric("dataloader_ms_per_step") == Approx(59.262).margin(0.05));
  CHECK(d.saving.per_step_ms == Approx(51.52).margin(0.05));
  CHECK(run.saving_all.profiler_overhead_ms > 5);
  CHECK(d.evidence.metric("recommended_workers") == Approx(4));
  CHECK(d.evidence.steps == std::vector<int64_t>{5, 6, 7, 8, 9, 10});
}

TEST_CASE("SL101: ResNet-50 with 4 workers (0.84%) is not flagged", "[rules][SL101][fixture]") {
  const RuleRun run = runRuleOnFixture("SL101", kResnetWorkers4);
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL101: the CPU-only HTA trace has no DataLoader ranges and nothing to infer from",
          "[rules][SL101][fixture]") {
  const RuleRun run = runRuleOnFixture("SL101", kCpuOnly);
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].rfind("no DataLoader ranges", 0) == 0);
  CHECK(run.not_checked[0].find("could not be inferred") != std::string::npos);
}

TEST_CASE("SL101: the core count steplint record wrote caps the worker count", "[rules][SL101]") {
  const RuleRun run = runRuleOnJson("SL101", loaderSteps(4000, kSingle, false, 3));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].evidence.metric("recommended_workers") == Approx(2));
  CHECK(run.diagnostics[0].fix[1].find("at most cpu-cores - 1 = 2") != std::string::npos);
}

}  // namespace
}  // namespace steplint::test
