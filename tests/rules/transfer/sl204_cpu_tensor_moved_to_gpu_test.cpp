#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

enum class Source { kCpuFactory, kGpuFactory, kDataLoader, kOtherOp };

// Each step: the source op at [100, 150), then aten::to > _to_copy > copy_ with a 4 KiB
// pageable HtoD copy (call [230, 430), memcpy [300, 400)) and cudaStreamSynchronize
// [440, 460); then a kernel. The copy blocks the host 220 µs.
std::string factorySteps(const std::vector<Source>& per_step, double kernel_us = 1000) {
  KinetoTrace t;
  t.device(0);
  for (size_t s = 0; s < per_step.size(); ++s) {
    const double b = 10000.0 * static_cast<double>(s);
    t.step(static_cast<int>(s) + 1, b, 10000);
    switch (per_step[s]) {
      case Source::kCpuFactory:
        t.op("aten::zeros", b + 100, 50)
            .op("aten::empty", b + 105, 10)
            .op("aten::zero_", b + 120, 20);
        break;
      case Source::kGpuFactory:  // zeros on the GPU launches a fill kernel
        t.op("aten::zeros", b + 100, 50)
            .op("aten::zero_", b + 110, 30)
            .kernel(b + 115, 10, b + 130, 5);
        break;
      case Source::kDataLoader:  // the batch from the loader, even if collate ends in a factory op
        t.annotation("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", b + 100, 50);
        t.op("aten::zeros", b + 110, 30);
        break;
      case Source::kOtherOp:
        t.op("aten::cat", b + 100, 50);
        break;
    }
    t.op("aten::to", b + 200, 300)
        .op("aten::_to_copy", b + 210, 280)
        .op("aten::copy_", b + 220, 260);
    t.copy("HtoD", "Pageable", "Device", b + 230, 200, b + 300, 100, 4096);
    t.runtime("cudaStreamSynchronize", b + 440, 20);
    t.op("aten::conv2d", b + 600, 100).kernel(b + 610, 10, b + 700, kernel_us);
  }
  return t.str();
}

// The kernel runs 200 µs into the next step: that step's extended start (tb_plugin's step
// extension) falls after its factory op, which still belongs to it.
TEST_CASE("SL204: a factory before the step's extended start still counts in its step",
          "[rules][SL204]") {
  const RuleRun run = runRuleOnJson(
      "SL204", factorySteps({Source::kCpuFactory, Source::kCpuFactory, Source::kCpuFactory}, 9500));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.evidence.metric("moves_per_step") == Approx(1.0));
  CHECK(d.evidence.metric("steps_with_pattern") == Approx(3.0));
}

TEST_CASE("SL204: torch.zeros(...).to(device) every step is flagged", "[rules][SL204]") {
  const RuleRun run = runRuleOnJson(
      "SL204", factorySteps({Source::kCpuFactory, Source::kCpuFactory, Source::kCpuFactory}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "1 tensor per step created on the CPU (aten::zeros) then copied to the GPU (4.0 KiB/step, "
        "0.22 ms/step)");
  // Replayed: aten::zeros [100, 150) and aten::to [200, 500) (with its blocking copy and
  // synchronize) leave the host's critical path: 350 µs of this host-bound step.
  CHECK(d.saving.per_step_ms == Approx(0.35).margin(1e-6));
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
  CHECK(d.fix[1].find("create-tensors-directly-on-the-target-device") != std::string::npos);
  CHECK(d.fingerprint_key == "cpu-factory-to-gpu");
}

TEST_CASE("SL204: with Python stacks the factory is the previous sibling of the .to() frame",
          "[rules][SL204]") {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 2, 10000, [&](int, double b) {
    t.python("train.py(12): train_step", b + 50, 1000);
    t.python("<built-in method randn of type object at 0x7f>", b + 100, 60)
        .op("aten::randn", b + 105, 50);
    t.op("aten::normal_", b + 120, 20);
    t.python("<built-in method to of Tensor object at 0x7f>", b + 200, 320)
        .op("aten::to", b + 205, 300);
    t.op("aten::_to_copy", b + 210, 280).op("aten::copy_", b + 220, 260);
    t.copy("HtoD", "Pageable", "Device", b + 230, 200, b + 300, 100, 2560);
    t.runtime("cudaStreamSynchronize", b + 440, 20);
    t.op("aten::mm", b + 600, 100).kernel(b + 610, 10, b + 700, 300);
  });
  const RuleRun run = runRuleOnJson("SL204", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message ==
        "1 tensor per step created on the CPU (aten::randn) then copied to the GPU "
        "(2.5 KiB/step, 0.22 ms/step)");
}

TEST_CASE("SL204: the input batch from the DataLoader is not flagged", "[rules][SL204]") {
  CHECK(runRuleOnJson("SL204",
                      factorySteps({Source::kDataLoader, Source::kDataLoader, Source::kDataLoader}))
            .diagnostics.empty());
}

TEST_CASE("SL204: a factory op that ran on the GPU is not flagged", "[rules][SL204]") {
  CHECK(runRuleOnJson("SL204",
                      factorySteps({Source::kGpuFactory, Source::kGpuFactory, Source::kGpuFactory}))
            .diagnostics.empty());
}

TEST_CASE("SL204: a one-off occurrence is below min-step-fraction", "[rules][SL204]") {
  const auto steps =
      factorySteps({Source::kCpuFactory, Source::kOtherOp, Source::kOtherOp, Source::kOtherOp});
  CHECK(runRuleOnJson("SL204", steps).diagnostics.empty());
  CHECK(runRuleOnJson("SL204", steps, {{"min-step-fraction", 0.25}}).diagnostics.size() == 1);
}

TEST_CASE("SL204: without ProfilerStep ranges the rule is not checked", "[rules][SL204]") {
  KinetoTrace t;
  t.device(0).op("aten::zeros", 100, 50).op("aten::to", 200, 300).kernel(210, 10, 300, 100);
  const RuleRun run = runRuleOnJson("SL204", t.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("no ProfilerStep#N ranges") == 0);
}

TEST_CASE("SL204: ResNet-50 input copies come from the DataLoader", "[rules][SL204][fixture]") {
  CHECK(runRuleOnFixture("SL204", kResnetWorkers0).diagnostics.empty());
  CHECK(runRuleOnFixture("SL204", kResnetWorkers4).diagnostics.empty());
}

TEST_CASE("SL204: the CPU-only HTA trace is not checked", "[rules][SL204][fixture]") {
  CHECK(runRuleOnFixture("SL204", kCpuOnly).not_checked ==
        std::vector<std::string>{"no GPU activity in this trace"});
}

}  // namespace
}  // namespace steplint::test
