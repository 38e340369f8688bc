#include <catch2/catch.hpp>

#include "../gpu_execution/fixture_model.h"
#include "../gpu_execution/trace_json.h"
#include "../rule_test_util.h"

using steplint::test::JsonTrace;

namespace {

// Two 1 ms steps: compute kernel [20, 20 + compute_us), then nccl:all_reduce [500, 800) whose
// NCCL kernel runs [520, 800).
std::string allReduce(double compute_us) {
  JsonTrace t;
  t.device(0, 8, 0);
  for (int s = 0; s < 2; ++s) {
    const double base = 1000.0 * s;
    t.step(s, base, 1000);
    const int64_t mm = t.op("aten::mm", base + 10, 20);
    t.launch(mm, base + 12, 5, "sm80_xmma_gemm_bf16", base + 20, compute_us);
    t.annotation("nccl:all_reduce", base + 500, 300);
    const int64_t rec = t.op("record_param_comms", base + 505, 10);
    t.launch(rec, base + 506, 5, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", base + 520, 280, 0, 13);
  }
  return t.str();
}

}  // namespace

TEST_CASE("SL503 flags communication not hidden by computation") {
  const auto run = steplint::test::runRuleOnJson("SL503", allReduce(300));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.message ==
        "communication not overlapped with computation takes 30.0% of the step (0.3 ms of 1.0 ms); "
        "0.0% of communication-kernel time overlaps compute kernels");
  CHECK(d.saving.per_step_ms == Approx(0.3));
  CHECK(d.evidence.metric("comm_compute_overlap", -1) == Approx(0.0));
}

TEST_CASE("SL503 is silent when compute kernels cover the collective") {
  const auto run = steplint::test::runRuleOnJson("SL503", allReduce(900));
  CHECK(run.diagnostics.empty());
}

TEST_CASE("SL503 on fixtures: ResNet-50 has no communication, the 2xA100 DDP trace exposes 6%") {
  const auto resnet = steplint::test::loadFixture(steplint::test::kResnet0);
  CHECK(steplint::test::runRule("SL503", resnet).diagnostics.empty());
  const auto ddp = steplint::test::loadFixture(steplint::test::kNcclDdp);
  CHECK(steplint::test::runRule("SL503", ddp).diagnostics.empty());
  const auto low = steplint::test::runRule("SL503", ddp, {{"max-share", 0.05}});
  REQUIRE(low.diagnostics.size() == 1);
  CHECK(low.diagnostics[0].evidence.metric("communication_share") == Approx(0.062).margin(0.01));
}
