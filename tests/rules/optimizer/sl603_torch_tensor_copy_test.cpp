#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

constexpr const char* kTensorFrame = "<built-in method tensor of type object at 0x7f21c8a3e9a0>";

enum class Call { kFromArray, kFromArray113, kFromList, kToGpu, kFloatCast, kNone };

// Steps of 10 ms. torch.tensor(ndarray) runs aten::to > aten::_to_copy > aten::copy_ at
// [110, 610) µs into the step (0.5 ms, 5 % of the step), then aten::detach_; with Python stacks
// both sit in the `<built-in method tensor ...>` frame.
void addCall(KinetoTrace& t, double b, Call call, double copy_us = 500, bool frames = true) {
  if (frames && call != Call::kNone) t.python(kTensorFrame, b + 100, copy_us + 100);
  switch (call) {
    case Call::kFromArray113:  // PyTorch 1.13 lifts the array first
      t.op("aten::lift_fresh", b + 102, 2);
      [[fallthrough]];
    case Call::kFromArray:  // .to(copy=True) on the CPU, then detach_()
      t.op("aten::to", b + 110, copy_us).op("aten::_to_copy", b + 115, copy_us - 10);
      t.op("aten::empty_strided", b + 120, 5).op("aten::copy_", b + 130, copy_us - 30);
      t.op("aten::detach_", b + 115 + copy_us, 2);
      break;
    case Call::kFromList:  // empty, element-wise store, a no-op to(), lift_fresh, detach_()
      t.op("aten::empty", b + 110, 5).op("aten::to", b + 500, 2).op("aten::lift_fresh", b + 510, 2);
      t.op("aten::detach_", b + 520, 2);
      break;
    case Call::kToGpu:  // torch.tensor(ndarray, device="cuda"): as_tensor would copy too
      t.op("aten::to", b + 110, 500)
          .op("aten::_to_copy", b + 115, 490)
          .op("aten::copy_", b + 130, 470);
      t.copy("HtoD", "Pageable", "Device", b + 140, 400, b + 200, 300, 1 << 20)
          .op("aten::detach_", b + 620, 2);
      break;
    case Call::kFloatCast:  // x.float(): a host copy without detach_()
      t.op("aten::to", b + 110, copy_us).op("aten::_to_copy", b + 115, copy_us - 10);
      t.op("aten::copy_", b + 130, copy_us - 30).op("aten::mul", b + 115 + copy_us, 2);
      break;
    case Call::kNone:
      t.python("train.py(40): train_step", b + 100, 600).op("aten::mul", b + 110, 50);
      break;
  }
}

std::string cpuSteps(const std::vector<Call>& calls, double copy_us = 500, bool frames = true) {
  KinetoTrace t;
  for (size_t s = 0; s < calls.size(); ++s) {
    const double b = 10000.0 * static_cast<double>(s);
    t.step(static_cast<int>(s) + 1, b, 10000);
    addCall(t, b, calls[s], copy_us, frames);
    t.op("aten::addmm", b + 1000, 8000);
  }
  return t.str();
}

TEST_CASE("SL603: torch.tensor(ndarray) copied every step is flagged with its host time",
          "[rules][SL603]") {
  const RuleRun run =
      runRuleOnJson("SL603", cpuSteps({Call::kFromArray, Call::kFromArray, Call::kFromArray}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "torch.tensor() copies an existing array or tensor 1 time per step (0.50 ms/step on the host, 5.0% of the step)");
  CHECK(d.saving.per_step_ms == Approx(0.5).margin(1e-9));  // CPU-only: all of the copy
  CHECK(d.saving.fraction_of_step == Approx(0.05).margin(1e-6));
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
  CHECK(d.evidence.events.size() == 6);  // per step: the frame and its aten::to
  CHECK(d.fix[1].find("torch.as_tensor") != std::string::npos);
  CHECK(d.fingerprint_key == "torch-tensor-copy");
}

TEST_CASE("SL603: torch.tensor(list) is not flagged: as_tensor converts a sequence too",
          "[rules][SL603]") {
  const RuleRun run =
      runRuleOnJson("SL603", cpuSteps({Call::kFromList, Call::kFromList, Call::kFromList}));
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

// Three GPU steps: `call`, then a matmul whose kernel runs [1100, 9100) µs into the step; with
// `early_kernel`, a kernel at [60, 360) also keeps the GPU busy during half of the copy.
std::string gpuSteps(Call call, bool early_kernel) {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 3, 10000, [&](int, double b) {
    if (early_kernel) t.op("aten::mm", b + 10, 40).kernel(b + 20, 10, b + 60, 300);
    addCall(t, b, call);
    t.op("aten::mm", b + 1000, 100).kernel(b + 1010, 10, b + 1100, 8000);
  });
  return t.str();
}

TEST_CASE("SL603: torch.tensor(..., device=cuda) is not flagged: the transfer stays",
          "[rules][SL603]") {
  const RuleRun run = runRuleOnJson("SL603", gpuSteps(Call::kToGpu, false));
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL603: on a GPU trace the saving is what the copy costs the step's critical path",
          "[rules][SL603]") {
  // The copy runs [110, 610) on the host. The host (10 ms per step) is the bottleneck: the GPU
  // runs 8.3 ms. Without the copy the matmul is launched 500 µs earlier and the step ends 500 µs
  // earlier; that the early kernel ran during part of the copy does not matter.
  const RuleRun run = runRuleOnJson("SL603", gpuSteps(Call::kFromArray, true));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].saving.per_step_ms == Approx(0.5).margin(1e-6));
  CHECK(run.diagnostics[0].saving.method.find("torch.as_tensor") != std::string::npos);
}

TEST_CASE("SL603: small or one-off copies stay below the thresholds", "[rules][SL603]") {
  const auto small =
      cpuSteps({Call::kFromArray, Call::kFromArray, Call::kFromArray}, 50);  // 0.5 % of the step
  CHECK(runRuleOnJson("SL603", small).diagnostics.empty());
  CHECK(runRuleOnJson("SL603", small, {{"min-share", 0.004}}).diagnostics.size() == 1);
  const auto once = cpuSteps({Call::kFromArray, Call::kNone, Call::kNone, Call::kNone});
  CHECK(runRuleOnJson("SL603", once).diagnostics.empty());
  const RuleRun low =
      runRuleOnJson("SL603", once, {{"min-step-fraction", 0.25}, {"min-share", 0.001}});
  REQUIRE(low.diagnostics.size() == 1);
  CHECK(low.diagnostics[0].evidence.steps == std::vector<int64_t>{1});
}

TEST_CASE("SL603: a call before the first step (setup) is not counted", "[rules][SL603]") {
  KinetoTrace t;
  addCall(t, -5000, Call::kFromArray);
  for (int s = 0; s < 3; ++s) {
    t.step(s + 1, 10000.0 * s, 10000);
    addCall(t, 10000.0 * s, Call::kNone);
  }
  const RuleRun run = runRuleOnJson("SL603", t.str());
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL603: the op sequence decides without Python frames, in 1.13 and 2.x order",
          "[rules][SL603]") {
  const auto plain = cpuSteps({Call::kFromArray, Call::kFromArray, Call::kFromArray}, 500, false);
  REQUIRE(runRuleOnJson("SL603", plain).diagnostics.size() == 1);
  const auto old =
      cpuSteps({Call::kFromArray113, Call::kFromArray113, Call::kFromArray113}, 500, false);
  const RuleRun run = runRuleOnJson("SL603", old);
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].saving.per_step_ms == Approx(0.5).margin(1e-9));
}

TEST_CASE("SL603: a host copy not followed by detach_ (x.float()) is not torch.tensor()",
          "[rules][SL603]") {
  const RuleRun run =
      runRuleOnJson("SL603", cpuSteps({Call::kFloatCast, Call::kFloatCast, Call::kFloatCast}));
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL603: without ProfilerStep ranges the rule is not checked", "[rules][SL603]") {
  KinetoTrace t;
  addCall(t, 0, Call::kFromArray);
  const RuleRun run = runRuleOnJson("SL603", t.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("no ProfilerStep#N ranges") == 0);
}

TEST_CASE("SL603: ResNet-50 does not call torch.tensor() in its steps", "[rules][SL603][fixture]") {
  for (const auto* fixture : {kResnetWorkers0, kResnetWorkers4}) {
    const RuleRun run = runRuleOnFixture("SL603", fixture);
    CHECK(run.diagnostics.empty());
    CHECK(run.not_checked.empty());
  }
}

TEST_CASE("SL603: a real PyTorch 1.13 trace: torch.tensor(array) flagged, torch.tensor(list) not",
          "[rules][SL603]") {
  // Per step: torch.tensor of a 64 KiB and an 8 MiB array, and torch.tensor(list of 64 ints).
  const RuleRun copies = runRuleOnTorch113("SL603", "adam_l2_foreach_tensor_copy");
  REQUIRE(copies.diagnostics.size() == 1);
  const auto& d = copies.diagnostics[0];
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3, 4});
  CHECK(d.evidence.metrics[0] == std::pair<std::string, double>{"copies_per_step", 2.0});
  CHECK(d.saving.fraction_of_step > 0.1);  // 8 MiB copied into fresh pages every step
  // The same loop with torch.from_numpy: only the list conversion is left.
  const RuleRun shared = runRuleOnTorch113("SL603", "adam_l2_single_from_numpy");
  CHECK(shared.diagnostics.empty());
  CHECK(shared.not_checked.empty());
}

}  // namespace
}  // namespace steplint::test
