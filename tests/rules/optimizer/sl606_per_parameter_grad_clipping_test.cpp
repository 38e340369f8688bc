#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::KinetoTrace;

namespace {

enum class ClipStyle { kPythonFrame, kLibTorch, kForeach };

struct ClipScenario {
  ClipStyle style = ClipStyle::kPythonFrame;
  int params = 60;
  double step_us = 3000;   // host length of each step
  double mm_us = 1000;     // the step's big kernel, launched first
  bool scale = true;       // the per-parameter mul_ run (false: norms only)
  bool item = false;       // error_if_nonfinite's aten::item in the total-norm ops
  int optimizer_muls = 0;  // per-parameter mul_ of an unlabelled optimizer right after
};

/// Four steps. Clipping starts 1200 µs into the step: `params` norm ops (10 µs, one 2 µs
/// kernel each, every 12 µs), six total-norm ops (10 µs each, every 12 µs), then `params` mul_
/// ops like the norms. With kPythonFrame a clip_grad_norm_ frame covers them; kForeach runs
/// _foreach_norm / _foreach_mul_ instead (multi_tensor_apply kernels, 8 tensors per launch).
std::string clipSteps(const ClipScenario& s) {
  KinetoTrace t;
  t.device(0, 8, 0);
  steplint::test::StreamQueue stream(5);
  for (int i = 0; i < 4; ++i) {
    const double b = s.step_us * i;
    t.step(i + 1, b, s.step_us);
    const int64_t mm = t.op("aten::mm", b + 10, 20).lastExternalId();
    t.launch(mm, b + 12, 5, "sm80_xmma_gemm_bf16bf16_bf16f32_f32", stream.at(b + 12, s.mm_us),
             s.mm_us);
    double at = b + 1200;
    auto perParam = [&](const std::string& name, const std::string& kernel, int n) {
      for (int p = 0; p < n; ++p, at += 12) {
        const int64_t op = t.op(name, at, 10).lastExternalId();
        t.launch(op, at + 2, 3, kernel, stream.at(at + 2, 2), 2);
      }
    };
    const double clip_us = 12.0 * (2 * s.params + 6);
    if (s.style != ClipStyle::kLibTorch)
      t.python("torch/nn/utils/clip_grad.py(76): clip_grad_norm_", at - 5, clip_us + 5);
    const bool foreach = s.style == ClipStyle::kForeach;
    perParam(foreach ? "aten::_foreach_norm" : "aten::linalg_vector_norm",
             foreach ? "multi_tensor_apply_kernel" : "reduce_kernel",
             foreach ? s.params / 8 : s.params);
    for (const char* name : {"aten::stack", "aten::linalg_vector_norm", "aten::add",
                             "aten::reciprocal", "aten::mul", "aten::clamp"}) {
      const bool read = s.item && std::string(name) == "aten::add";
      t.op(read ? "aten::item" : name, at, 10);
      at += 12;
    }
    if (s.scale)
      perParam(foreach ? "aten::_foreach_mul_" : "aten::mul_",
               foreach ? "multi_tensor_apply_kernel" : "vectorized_elementwise_kernel",
               foreach ? s.params / 8 : s.params);
    perParam("aten::mul_", "vectorized_elementwise_kernel", s.optimizer_muls);
  }
  return t.str();
}

}  // namespace

TEST_CASE(
    "SL606: clip_grad_norm_'s per-parameter loop, host-bound: the clipping's host time halves") {
  const auto run = steplint::test::runRuleOnJson("SL606", clipSteps({}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "gradient clipping launches 120 kernels per step (median 2.0 µs) one parameter at a time; it takes 1.52 ms "
      "on the host and 0.24 ms of GPU time per step");
  CHECK(d.evidence.metric("regions_per_step") == Approx(1));
  // The 3 ms host step bounds it (GPU: 1 ms + 0.24 ms). The clipping frame's 1517 µs at the
  // assumed 2x save 758 µs of 3000; at the low end (1.5x) 506 µs.
  CHECK(d.saving.fraction_of_step == Approx(758.5 / 3000).margin(0.002));
  CHECK(d.saving.low_ms / d.saving.per_step_ms == Approx(505.7 / 758.5).margin(0.01));
  CHECK(d.fix.front().find("foreach=True") != std::string::npos);
}

TEST_CASE("SL606: GPU-bound, the clipping kernels' time halves") {
  ClipScenario s;
  s.mm_us = 5000;  // the GPU bounds each step at 5000 + 240 µs
  const auto run = steplint::test::runRuleOnJson("SL606", clipSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  // 120 kernels x 2 µs at 2x: 120 µs of the 5240 µs step.
  CHECK(run.diagnostics[0].saving.fraction_of_step == Approx(120.0 / 5240).margin(0.001));
}

TEST_CASE("SL606 finds LibTorch's unlabelled loop and stops before the optimizer's mul_") {
  ClipScenario s;
  s.style = ClipStyle::kLibTorch;
  s.optimizer_muls = 60;  // an unlabelled per-parameter SGD step right after the clipping
  const auto run = steplint::test::runRuleOnJson("SL606", clipSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message.find("(LibTorch's clip_grad_norm_ loop: norms, then mul_, per parameter)") !=
        std::string::npos);
  CHECK(d.evidence.metric("kernels_per_step") ==
        Approx(120));  // 60 norms + 60 clip mul_, not the optimizer's
  CHECK(d.evidence.metric("clip_host_ms_per_step") ==
        Approx(1.51));  // first norm to last clip mul_
  REQUIRE(d.evidence.ranges.size() == 4);
  CHECK(d.evidence.ranges[0].end_ns - d.evidence.ranges[0].start_ns == 1510000);
}

TEST_CASE("SL606 leaves error_if_nonfinite's scalar read to SL202") {
  ClipScenario s;
  s.item = true;
  const auto run = steplint::test::runRuleOnJson("SL606", clipSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].evidence.metric("clip_host_ms_per_step") ==
        Approx(1.507));  // 1517 - the 10 µs item
}

TEST_CASE("SL606 is silent for foreach clipping, norms without scaling and short runs") {
  ClipScenario foreach;
  foreach
    .style = ClipStyle::kForeach;
  CHECK(steplint::test::runRuleOnJson("SL606", clipSteps(foreach)).diagnostics.empty());
  ClipScenario norms_only;
  norms_only.style = ClipStyle::kLibTorch;
  norms_only.scale = false;  // per-parameter norms for logging: not clipping
  CHECK(steplint::test::runRuleOnJson("SL606", clipSteps(norms_only)).diagnostics.empty());
  ClipScenario few;
  few.style = ClipStyle::kLibTorch;
  few.params = 12;  // a run shorter than min-norm-run (16)
  CHECK(steplint::test::runRuleOnJson("SL606", clipSteps(few),
                                      {{"min-kernels-per-step", int64_t{10}}})
            .diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson(
            "SL606", clipSteps(few),
            {{"min-kernels-per-step", int64_t{10}}, {"min-norm-run", int64_t{12}}})
            .diagnostics.size() == 1);
  ClipScenario small_model;
  small_model.params = 20;  // 40 kernels per step: below min-kernels-per-step
  CHECK(steplint::test::runRuleOnJson("SL606", clipSteps(small_model)).diagnostics.empty());
}

TEST_CASE("SL606: the ResNet-50 fixtures do not clip gradients") {
  const auto model = steplint::test::loadFixture(steplint::test::kResnetWorkers0);
  const auto run = steplint::test::runRule("SL606", model);
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL606: a long run of norm ops without scaling is scanned once, not once per op") {
  // 60,000 sibling norm ops in one step and no mul_: every op starts a candidate run. Scanning
  // the run again from each op would walk 1.8e9 siblings; one scan is 60,000.
  KinetoTrace t;
  t.device(0, 8, 0);
  t.step(1, 0, 700000);
  const int64_t mm = t.op("aten::mm", 1, 2).lastExternalId();
  t.launch(mm, 1.5, 0.5, "sm80_xmma_gemm_bf16bf16_bf16f32_f32", 10, 100);
  for (int i = 0; i < 60000; ++i) t.op("aten::linalg_vector_norm", 10 + 10.0 * i, 8);
  const auto model = steplint::test::importInline(t.str());
  const auto start = std::chrono::steady_clock::now();
  const auto run = steplint::test::runRule("SL606", model);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(run.diagnostics.empty());
  CHECK(seconds < 5);
}
