#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "copy_scenarios.h"

namespace steplint::test {
namespace {

// Each step: a kernel [200, 3200); loss.item() = aten::item > aten::_local_scalar_dense with
// a DtoH cudaMemcpyAsync [420, 3270) (memcpy [3210, 3260)) and cudaStreamSynchronize
// [3275, 3285); then aten::add launches a kernel at 3600: 340 µs of GPU idle after the item.
// With `explicit_sync`, torch.cuda.synchronize() [3750, 4010) waits for that kernel
// [3600, 4000) and the next kernel starts at 4300: 300 µs more.
std::string itemSteps(bool explicit_sync, int steps = 3) {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, steps, 10000, [&](int, double b) {
    t.kernel(b + 100, 10, b + 200, 3000);
    t.op("aten::item", b + 400, 2900).op("aten::_local_scalar_dense", b + 410, 2880);
    t.copy("DtoH", "Device", "Pageable", b + 420, 2850, b + 3210, 50, 4);
    t.runtime("cudaStreamSynchronize", b + 3275, 10);
    t.op("aten::add", b + 3500, 50).kernel(b + 3510, 10, b + 3600, explicit_sync ? 400 : 100);
    if (explicit_sync) {
      t.runtime("cudaDeviceSynchronize", b + 3750, 260);
      t.op("aten::mul", b + 4200, 50).kernel(b + 4210, 10, b + 4300, 100);
    }
  });
  return t.str();
}

TEST_CASE("SL202: one .item() per step is a note with the GPU idle it causes", "[rules][SL202]") {
  const RuleRun run = runRuleOnJson("SL202", itemSteps(false));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.severity == analyzer::Severity::kNote);
  CHECK(
      d.message ==
      "1 host sync per step (1 scalar read (.item()); most from aten::item) leaves the GPU idle 0.34 ms/step");
  // The replay (docs/savings.md): without the wait the host no longer sits in the DtoH copy call
  // [420, 3270) until the 3 ms kernel ends; it reaches the rest of its 10 ms step (host work the
  // GPU's 3.1 ms cannot hide) 2.85 ms earlier, less the 10 µs the call still costs.
  CHECK(d.saving.per_step_ms == Approx(2.84).margin(1e-6));
  CHECK(d.saving.alone_ms == Approx(2.84).margin(1e-6));
  CHECK(run.saving_all.per_step_ms == Approx(2.84).margin(1e-6));
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
  CHECK(d.fingerprint_key == "host-sync");
}

TEST_CASE("SL202: two syncs per step (item + explicit synchronize) are a warning",
          "[rules][SL202]") {
  const RuleRun run = runRuleOnJson("SL202", itemSteps(true));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.severity == analyzer::Severity::kWarning);
  CHECK(
      d.message ==
      "2 host syncs per step (1 explicit synchronize, 1 scalar read (.item()); most from aten::item) leave the GPU "
      "idle 0.64 ms/step");
  // The .item() as above, plus the synchronize's 250 µs wait for the 400 µs kernel.
  CHECK(d.saving.per_step_ms == Approx(3.09).margin(1e-6));
  CHECK(d.evidence.metric("syncs_per_step") == Approx(2));
}

TEST_CASE("SL202: a sync called in the step itself names no step as its source", "[rules][SL202]") {
  // torch.cuda.synchronize() outside any op: the innermost range is each step's own
  // ProfilerStep#N, and "most from ProfilerStep#1" read as one step's doing.
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 3, 10000, [&](int, double b) {
    t.op("aten::add", b + 100, 50).kernel(b + 110, 10, b + 200, 3000);
    t.runtime("cudaDeviceSynchronize", b + 300, 2910);
    t.op("aten::mul", b + 3600, 50).kernel(b + 3610, 10, b + 3700, 100);
  });
  const RuleRun run = runRuleOnJson("SL202", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  INFO(run.diagnostics[0].message);
  CHECK(run.diagnostics[0].message.find("most from the step itself, outside any op)") !=
        std::string::npos);
}

TEST_CASE("SL202: a copy to pageable host memory that blocks is a sync without a sync call",
          "[rules][SL202]") {
  // pytorch/benchmark's copy benchmark: .cpu() whose cudaMemcpyAsync blocks until the 3 ms
  // kernel and the copy end; a second recording that also had torch's 5 µs
  // cudaStreamSynchronize read 33 ms of saving, this one no finding at all.
  for (const bool with_sync : {false, true}) {
    INFO("with_sync " << with_sync);
    KinetoTrace t;
    t.device(0);
    forEachStep(t, 3, 10000, [&](int, double b) {
      t.kernel(b + 100, 10, b + 200, 3000);
      t.op("aten::copy_", b + 400, 2900);
      t.copy("DtoH", "Device", "Pageable", b + 420, 2850, b + 3210, 50, 4 << 20);
      if (with_sync) t.runtime("cudaStreamSynchronize", b + 3275, 5);
      t.op("aten::add", b + 3500, 50).kernel(b + 3510, 10, b + 3600, 100);
    });
    const RuleRun run = runRuleOnJson("SL202", t.str());
    REQUIRE(run.diagnostics.size() == 1);
    const auto& d = run.diagnostics[0];
    INFO(d.message);
    CHECK(d.message.rfind("1 host sync per step (1 device-to-host copy; most from aten::copy_)",
                          0) == 0);  // counted once, with or without the sync call
    CHECK(d.saving.known());
    CHECK(d.saving.per_step_ms > 2.0);  // the host no longer sits out the 3 ms kernel
  }
  // Into pinned memory (non_blocking) a call that outlasts its tiny copy did not wait for it:
  // beside a .item(), one sync per step, not two.
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 3, 10000, [&](int, double b) {
    t.kernel(b + 100, 10, b + 200, 3000);
    t.op("aten::item", b + 400, 2900).op("aten::_local_scalar_dense", b + 410, 2880);
    t.copy("DtoH", "Device", "Pageable", b + 420, 2850, b + 3210, 50, 4);
    t.runtime("cudaStreamSynchronize", b + 3275, 10);
    t.op("aten::add", b + 3500, 50).kernel(b + 3510, 10, b + 3600, 100);
    t.op("aten::copy_", b + 3800, 20);
    t.copy("DtoH", "Device", "Pinned", b + 3800, 10, b + 3802, 1, 4);
  });
  const RuleRun pinned = runRuleOnJson("SL202", t.str());
  REQUIRE(pinned.diagnostics.size() == 1);
  CHECK(pinned.diagnostics[0].message.rfind("1 host sync per step (1 scalar read (.item())", 0) ==
        0);
}

TEST_CASE("SL202: a sync that finds the GPU idle costs nothing and is not flagged",
          "[rules][SL202]") {
  KinetoTrace t;
  t.device(0);
  for (int s = 0; s < 3; ++s) {
    const double b = 10000.0 * s;
    t.step(s + 1, b, 10000).kernel(b + 100, 10, b + 200, 100);  // done at 300
    t.runtime("cudaDeviceSynchronize", b + 1000, 5);
    t.op("aten::add", b + 2000, 50).kernel(b + 2010, 10, b + 2100, 100);
  }
  CHECK(runRuleOnJson("SL202", t.str()).diagnostics.empty());
}

TEST_CASE("SL202: syncs after copies to the device belong to SL203", "[rules][SL202]") {
  CHECK(runRuleOnJson("SL202", hostToDeviceCopySteps("Pageable", true)).diagnostics.empty());
}

TEST_CASE("SL202: .cpu() is a device-to-host copy, a bare HtoD copy + sync (LibTorch) is SL203's",
          "[rules][SL202]") {
  KinetoTrace t;
  t.device(0);
  for (int s = 0; s < 2; ++s) {
    const double b = 10000.0 * s;
    t.step(s + 1, b, 10000).kernel(b + 100, 10, b + 200, 1000);  // busy until 1200
    t.op("aten::to", b + 300, 1000)
        .op("aten::_to_copy", b + 310, 980)
        .op("aten::copy_", b + 320, 960);
    t.copy("DtoH", "Device", "Pageable", b + 330, 900, b + 1210, 20, 1024);  // ends 1230
    t.runtime("cudaStreamSynchronize", b + 1240, 10);
    t.copy("HtoD", "Pageable", "Device", b + 1400, 100, b + 1420, 60, 1024);  // no op around it
    t.runtime("cudaStreamSynchronize", b + 1510, 10);
    t.kernel(b + 1600, 10, b + 1700, 100);
  }
  const RuleRun run = runRuleOnJson("SL202", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "1 host sync per step (1 device-to-host copy; most from aten::to) leaves the GPU idle "
        "0.19 ms/step");  // copy ends 1230, the next GPU op (the HtoD copy) starts 1420
}

TEST_CASE("SL202: occasional syncs (every other step) stay below min-syncs-per-step",
          "[rules][SL202]") {
  CHECK(
      runRuleOnJson("SL202", itemSteps(false), {{"min-syncs-per-step", 1.5}}).diagnostics.empty());
}

TEST_CASE("SL202: cuda_sync records without an API call count as syncs", "[rules][SL202]") {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 2, 10000, [&](int, double b) {
    t.kernel(b + 100, 10, b + 200, 1000);
    t.syncRecord("Stream Sync", b + 300, 905);       // returns at 1205, the kernel ended at 1200
    t.syncRecord("Stream Wait Event", b + 1300, 5);  // not a host wait
    t.op("aten::add", b + 1400, 50).kernel(b + 1410, 10, b + 1500, 100);
  });
  const RuleRun run = runRuleOnJson("SL202", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].evidence.metric("syncs_per_step") == Approx(1));
  // The record blocks the host [300, 1205) until the kernel ends at 1200: 900 µs of host time.
  CHECK(run.diagnostics[0].saving.per_step_ms == Approx(0.9).margin(1e-6));
}

TEST_CASE("SL202: ResNet-50 fixtures have no host syncs besides the input copies",
          "[rules][SL202][fixture]") {
  CHECK(runRuleOnFixture("SL202", kResnetWorkers0).diagnostics.empty());
  CHECK(runRuleOnFixture("SL202", kResnetWorkers4).diagnostics.empty());
}

TEST_CASE("SL202: the CPU-only HTA trace is not checked", "[rules][SL202][fixture]") {
  CHECK(runRuleOnFixture("SL202", kCpuOnly).not_checked ==
        std::vector<std::string>{"no GPU activity in this trace"});
}

}  // namespace
}  // namespace steplint::test

namespace steplint::test {
namespace {

/// Six steps of an end-of-step loss.item(): the DataLoader for `load_us` (the GPU has nothing
/// queued), a kernel of `kernel_us` starting 110 µs later, then aten::item `item_us` into the
/// kernel, whose DtoH copy call blocks until the kernel ends. The GPU idle it causes is at the
/// NEXT step's start, while the host loads data it could have loaded during the kernel.
std::string endOfStepItem(double load_us, double kernel_us, double item_us) {
  KinetoTrace t;
  t.device(0);
  const double step_us = load_us + kernel_us + 200;
  forEachStep(t, 6, step_us, [&](int, double b) {
    const double k = b + load_us + 110;  // the kernel's start
    t.annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", b, load_us);
    t.op("aten::mm", k - 60, 100).kernel(k - 10, 10, k, kernel_us);
    const double item = k + item_us, copy_end = k + kernel_us + 2;  // the copy runs then
    t.op("aten::item", item, copy_end - item + 48)
        .op("aten::_local_scalar_dense", item + 10, copy_end - item + 28);
    t.copy("DtoH", "Device", "Pageable", item + 20, copy_end - item - 12, copy_end, 3, 4);
    t.runtime("cudaStreamSynchronize", copy_end + 13, 10);
  });
  return t.str();
}

// Issue 13: a 3 ms load and a 6 ms kernel, 9.2 ms steps.
TEST_CASE(
    "SL202: an end-of-step .item() is charged the idle it causes at the next step's start (#13)",
    "[rules][SL202]") {
  const RuleRun run = runRuleOnJson("SL202", endOfStepItem(3000, 6000, 490));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  // The GPU idles from the copy's end (9.115 ms) to the next step's kernel (3.11 ms into it):
  // 3.195 ms after each of the first five steps; the last has no next step to measure.
  CHECK(d.evidence.metric("gpu_idle_ms_per_step") == Approx(5 * 3.195 / 6).margin(0.01));
  // The host loads the next batch in 3 ms of that idle: said, and yet the sync's to pay for it.
  CHECK(d.evidence.metric("gpu_idle_dataloader_ms_per_step") == Approx(5 * 3.0 / 6).margin(0.01));
  CHECK(d.message.find("(2.50 ms of it while the host loads the next batch)") != std::string::npos);
  // Without the wait, the next step's 3 ms of loading overlaps this step's kernel: the GPU
  // bounds the step (6 ms kernel + its launch latency) instead of 9.2 ms.
  CHECK(d.saving.per_step_ms == Approx(3.19).margin(0.05));
  CHECK(run.saving_all.per_step_ms <= 9.2);
}

// The same, but loading a batch takes 30 ms against 0.5 ms of GPU work: the GPU idles about
// 30 ms after each sync, nearly all of it while the host loads. Without the sync the loading
// could hide only the 0.5 ms kernel: the message says where the idle went, the saving stays
// small, and SL101 owns the rest.
TEST_CASE("SL202: GPU idle after a sync that the input pipeline makes long is said so (#13)",
          "[rules][SL202]") {
  const RuleRun run = runRuleOnJson("SL202", endOfStepItem(30000, 500, 90));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.evidence.metric("gpu_idle_ms_per_step") == Approx(5 * 30.198 / 6).margin(0.05));
  CHECK(d.evidence.metric("gpu_idle_dataloader_ms_per_step") == Approx(5 * 30.0 / 6).margin(0.05));
  CHECK(d.message.find("ms of it while the host loads the next batch)") != std::string::npos);
  CHECK(d.saving.per_step_ms < 1.0);  // at most the kernel the loading could have hidden
}

// Issue 13: a tiny .to("cpu") that holds the host 140 ms on a 246 ms step. The copy call waits
// for the 140 ms of kernels before it, then the host works 100 ms on the result.
TEST_CASE("SL202: a blocking device-to-host copy is charged the host time it blocks (#13)",
          "[rules][SL202]") {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 4, 246000, [&](int, double b) {
    t.op("aten::mm", b + 100, 2000).kernel(b + 200, 50, b + 300, 140000);
    t.op("aten::to", b + 2500, 138000)
        .op("aten::_to_copy", b + 2510, 137980)
        .op("aten::copy_", b + 2520, 137960);
    t.copy("DtoH", "Device", "Pageable", b + 2530, 137900, b + 140300, 100, 4);
    t.runtime("cudaStreamSynchronize", b + 140440, 10);
    t.op("aten::cpu_metrics", b + 140500, 100000);
  });
  const RuleRun run = runRuleOnJson("SL202", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  // Without the wait the host's 100 ms of work overlaps the next step's kernels: the step is
  // bound by the GPU's 140 ms (plus launch), not 246 ms; about 106 ms, 43% of the step.
  CHECK(d.saving.per_step_ms == Approx(105.8).margin(1.0));
  CHECK(d.saving.fraction_of_step == Approx(0.43).margin(0.01));
}

}  // namespace
}  // namespace steplint::test
