#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// Two 10 ms steps; Optimizer.step [5000, 9000) runs `n` per-parameter add_ ops (2 µs kernels),
// or, with `foreach`, 4 aten::_foreach_add_ ops launching multi_tensor_apply kernels.
std::string optimizerStep(int n, bool foreach = false) {
  KinetoTrace t;
  t.device(0, 8, 0);
  forEachStep<0>(t, 2, 10000, [&](int, double base) {
    const int64_t mm = t.op("aten::mm", base + 10, 20).lastExternalId();
    t.launch(mm, base + 12, 5, "sm80_xmma_gemm_bf16", base + 20, 3000);
    t.annotation("Optimizer.step#Adam.step", base + 5000, 4000);
    for (int i = 0; i < n; ++i) {
      const double ts = base + 5010 + 30.0 * i;
      const int64_t op =
          t.op(foreach ? "aten::_foreach_add_" : "aten::add_", ts, 20).lastExternalId();
      t.launch(op, ts + 2, 5,
               foreach ? "multi_tensor_apply_kernel" : "vectorized_elementwise_kernel", ts + 10, 2);
    }
  });
  return t.str();
}

}  // namespace

TEST_CASE("SL602 flags a per-parameter optimizer step") {
  const auto run = steplint::test::runRuleOnJson("SL602", optimizerStep(120));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "the optimizer step launches 120 kernels per step (median 2.0 µs) one parameter at a time; it "
      "takes 4.0 ms on the host and 0.2 ms of GPU time per step");
  CHECK(d.saving.per_step_ms == Approx(2.0));  // 4 ms host x (1 - 1/2)
  CHECK(d.saving.fraction_of_step == Approx(0.2));
}

TEST_CASE("SL602 is silent for foreach steps and few kernels") {
  CHECK(steplint::test::runRuleOnJson("SL602", optimizerStep(120, true)).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL602", optimizerStep(50)).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL602", optimizerStep(50),
                                      {{"min-kernels-per-step", int64_t{40}}})
            .diagnostics.size() == 1);
}

TEST_CASE(
    "SL602 on fixtures: fires on ResNet-50 (SGD, 483 kernels), silent on the foreach DDP trace") {
  for (const char* f : {steplint::test::kResnetWorkers0, steplint::test::kResnetWorkers4}) {
    const auto model = steplint::test::loadFixture(f);
    const auto run = steplint::test::runRule("SL602", model);
    REQUIRE(run.diagnostics.size() == 1);
    CHECK(run.diagnostics[0].evidence.metric("kernels_per_step") == Approx(483));
  }
  const auto ddp = steplint::test::loadFixture(steplint::test::kNcclDdp);
  const auto run = steplint::test::runRule("SL602", ddp);
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}
