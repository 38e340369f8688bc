#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// Where the gradients are and what the trace records of a device.
enum class Where {
  kGpu,            // the fills launch fill kernels
  kCpuOnly,        // no device in the trace at all
  kCpuBesideGpu,   // a GPU runs the matmul, the fills launch nothing: CPU gradients
  kGpuUnrecorded,  // deviceProperties but no launch recorded (CPU activity only): unknown
};

// Two 1 ms steps; zero_grad [10, 210) zero-fills `n` gradients (10 µs host, 2 µs fill kernel each).
// `under_zeros` puts each aten::zero_ under aten::zeros (a fresh tensor, not a gradient).
// `nested`: PyTorch 1.8 records each gradient's aten::zero_ inside another aten::zero_.
std::string zeroGrad(int n, bool under_zeros = false,
                     const std::string& range = "Optimizer.zero_grad#SGD.zero_grad",
                     bool nested = false, Where where = Where::kGpu) {
  KinetoTrace t;
  if (where != Where::kCpuOnly) t.device(0, 7, 0);
  forEachStep<0>(t, 2, 1000, [&](int, double base) {
    t.annotation(range, base + 10, 200);
    for (int i = 0; i < n; ++i) {
      const double ts = base + 12 + 15.0 * i;
      if (under_zeros) t.op("aten::zeros", ts - 1, 12);
      if (nested) t.op("aten::zero_", ts - 0.5, 11);
      t.op("aten::zero_", ts, 10);
      const int64_t f = t.op("aten::fill_", ts + 1, 8).lastExternalId();
      if (where == Where::kGpu)
        t.launch(f, ts + 2, 4, "vectorized_elementwise_kernel<FillFunctor<float>>", ts + 5, 2);
    }
    const int64_t mm = t.op("aten::mm", base + 300, 20).lastExternalId();
    if (where == Where::kGpu || where == Where::kCpuBesideGpu)
      t.launch(mm, base + 302, 5, "volta_sgemm_64x64_nt", base + 310, 400);
  });
  return t.str();
}

std::string zeroGradOn(Where where) {
  return zeroGrad(10, false, "Optimizer.zero_grad#SGD.zero_grad", false, where);
}

}  // namespace

TEST_CASE("SL601 flags zero_grad filling gradients with aten::zero_") {
  const auto run = steplint::test::runRuleOnJson("SL601", zeroGrad(10));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "zero_grad fills 10 gradients per step with aten::zero_ (0.10 ms host, 0.02 ms GPU per step) "
      "instead of setting them to None");
  CHECK(d.saving.per_step_ms == Approx(0.1));
  CHECK(d.saving.method.find("assumes") == std::string::npos);  // the fills launched kernels
  CHECK(d.evidence.events.size() == 20);
  CHECK(d.fix.front().find("zero_grad(/*set_to_none=*/true)") != std::string::npos);
}

TEST_CASE("SL601 counts an aten::zero_ inside another once (PyTorch 1.8 traces)") {
  const auto run = steplint::test::runRuleOnJson(
      "SL601", zeroGrad(10, false, "Optimizer.zero_grad#SGD.zero_grad", /*nested=*/true));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.evidence.metric("zero_ops_per_step") == Approx(10));
  CHECK(d.evidence.metric("host_ms_per_step") == Approx(0.11));  // the outer calls, 11 µs each
  CHECK(d.evidence.metric("gpu_ms_per_step") == Approx(0.02));
}

TEST_CASE("SL601 also matches a Python zero_grad frame") {
  const auto run = steplint::test::runRuleOnJson(
      "SL601", zeroGrad(3, false, "torch/optim/optimizer.py(250): zero_grad"));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].evidence.metric("zero_ops_per_step") == Approx(3));
}

TEST_CASE(
    "SL601 is silent for aten::zeros, an empty zero_grad, and not checked without zero_grad") {
  CHECK(steplint::test::runRuleOnJson("SL601", zeroGrad(10, true)).diagnostics.empty());
  const auto empty = steplint::test::runRuleOnJson("SL601", zeroGrad(0));
  CHECK(empty.diagnostics.empty());
  CHECK(empty.not_checked.empty());
  const auto none = steplint::test::runRuleOnJson("SL601", zeroGrad(2, false, "my_scope"));
  CHECK(none.diagnostics.empty());
  CHECK(none.not_checked.size() == 1);
}

TEST_CASE("SL601 fires on both ResNet-50 fixtures (SGD.zero_grad zeroes 161 gradients)") {
  for (const char* f : {steplint::test::kResnetWorkers0, steplint::test::kResnetWorkers4}) {
    const auto model = steplint::test::loadFixture(f);
    const auto run = steplint::test::runRule("SL601", model);
    REQUIRE(run.diagnostics.size() == 1);
    CHECK(run.diagnostics[0].evidence.metric("zero_ops_per_step") == Approx(161));
    CHECK(run.diagnostics[0].saving.per_step_ms > 1);
  }
  const auto ddp =
      steplint::test::loadFixture(steplint::test::kNcclDdp);  // PyTorch 2.x: set_to_none by default
  CHECK(steplint::test::runRule("SL601", ddp).diagnostics.empty());
}

TEST_CASE("SL601 on CPU gradients is a note without a saving: set_to_none re-allocates them") {
  // h6 D3: on the CPU, set_to_none made an 8 x Linear(1024) model's steps 13-14% slower (backward
  // re-allocates and page-faults every gradient), while the fill's time predicted a saving.
  for (const Where where : {Where::kCpuOnly, Where::kCpuBesideGpu}) {
    const auto run = steplint::test::runRuleOnJson("SL601", zeroGradOn(where));
    REQUIRE(run.diagnostics.size() == 1);
    const auto& d = run.diagnostics[0];
    CHECK(d.severity == steplint::analyzer::Severity::kNote);
    CHECK(d.message ==
          "zero_grad fills 10 CPU gradients per step with aten::zero_ (0.10 ms per step) instead "
          "of setting them to None; on the CPU that is no saving to count on: every backward "
          "would re-allocate them");
    CHECK_FALSE(d.saving.known());
    CHECK(d.effect == nullptr);
    CHECK(d.saving.method.rfind("not estimated: the gradients live on the CPU", 0) == 0);
    CHECK(d.saving.method.find("page-faults") != std::string::npos);
    CHECK(d.fix.front().find("only where a measurement shows it faster") != std::string::npos);
    CHECK(run.saving_all.per_step_ms < 0);  // nothing in "fixing all findings"
  }
}

TEST_CASE("SL601 keeps its estimate where the trace cannot tell CPU from GPU gradients") {
  // A GPU in deviceProperties but no launch recorded at all (CPU activity only).
  const auto run = steplint::test::runRuleOnJson("SL601", zeroGradOn(Where::kGpuUnrecorded));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.severity == steplint::analyzer::Severity::kWarning);
  CHECK(d.saving.per_step_ms == Approx(0.1));
  CHECK(d.saving.method.find("assumes the gradients are on the device") != std::string::npos);
}
