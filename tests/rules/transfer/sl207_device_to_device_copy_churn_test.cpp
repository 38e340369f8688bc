#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

constexpr const char* kCopyKernel =
    "void at::native::vectorized_elementwise_kernel<4, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)>";

enum class CopyStyle { kClone, kCast, kMemcpy, kContiguousInConv };

struct ChurnScenario {
  double host_us = 1000;  // each step's host length
  double mm_us = 1200;    // the step's one big kernel (aten::mm, launched first)
  int copies = 100;       // copies per step, launched every 8 µs from 100 µs into the step
  double copy_us = 3;     // each copy's GPU time
  CopyStyle style = CopyStyle::kClone;
};

/// Four steps: aten::mm launches a big kernel, then `copies` small copies follow, each
/// `aten::clone [6 µs] > aten::copy_ [4 µs] > launch [2 µs]` (or a cast, a DtoD memcpy, or a
/// clone inside conv2d > contiguous). Kernels queue on one stream behind the previous step's.
std::string churnSteps(const ChurnScenario& s) {
  KinetoTrace t;
  t.device(0);
  steplint::test::StreamQueue stream(5);
  for (int i = 0; i < 4; ++i) {
    const double b = s.host_us * i;
    t.step(i + 1, b, s.host_us);
    t.op("aten::mm", b + 10, 20).kernel(b + 12, 5, stream.at(b + 12, s.mm_us), s.mm_us);
    for (int c = 0; c < s.copies; ++c) {
      const double ts = b + 100 + 8.0 * c;
      switch (s.style) {
        case CopyStyle::kClone:
          t.op("aten::clone", ts, 6).op("aten::copy_", ts + 1, 4);
          break;
        case CopyStyle::kCast:
          t.op("aten::to", ts, 6).op("aten::_to_copy", ts + 0.5, 5).op("aten::copy_", ts + 1, 4);
          break;
        case CopyStyle::kMemcpy:
          t.op("aten::copy_", ts, 6);
          t.copy("DtoD", "Device", "Device", ts + 2, 2, stream.at(ts + 2, s.copy_us), s.copy_us,
                 4096);
          continue;
        case CopyStyle::kContiguousInConv:
          t.op("aten::conv2d", ts, 7)
              .op("aten::contiguous", ts + 0.5, 6)
              .op("aten::clone", ts + 1, 5);
          t.op("aten::copy_", ts + 1.5, 4);
          break;
      }
      t.kernel(ts + 2, 2, stream.at(ts + 2, s.copy_us), s.copy_us, kCopyKernel);
    }
  }
  return t.str();
}

TEST_CASE("SL207: 100 small clones per step, GPU-bound: removing them saves their GPU time",
          "[rules][SL207]") {
  const RuleRun run = runRuleOnJson("SL207", churnSteps({}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "100 small device-to-device copies per step (100 copy kernels, 0 Memcpy DtoD; median 3.0 µs) take 0.30 ms of "
      "GPU time and 0.60 ms on the host per step; most from aten::clone");
  CHECK(metricOf(d, "copies_per_step") == Approx(100));
  CHECK(d.evidence.events.size() == 20);
  // Per step the GPU runs 1200 µs of matmul + 300 µs of copies behind a 1000 µs host: without
  // the copies 1200 µs, 20% of the 1500 µs step; with half of them (low end) 10%.
  CHECK(d.saving.fraction_of_step == Approx(0.2).margin(0.003));
  CHECK(d.saving.low_ms / d.saving.per_step_ms == Approx(0.5).margin(0.02));
  CHECK(d.fingerprint_key == "dtod-copies");
}

TEST_CASE("SL207: host-bound, the clones' host time is the saving", "[rules][SL207]") {
  ChurnScenario s;
  s.host_us = 2000;
  s.mm_us = 500;
  const RuleRun run = runRuleOnJson("SL207", churnSteps(s));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  // The host's 2000 µs bound each step; the 100 clone ranges take 600 µs of it. Without them
  // the host needs 1400 µs, still more than the GPU's 500 µs: 30% saved, 15% at the low end.
  CHECK(d.saving.fraction_of_step == Approx(0.3).margin(0.003));
  CHECK(d.saving.low_ms / d.saving.per_step_ms == Approx(0.5).margin(0.02));
}

TEST_CASE("SL207: DtoD memcpys count, and a clone inside an op is charged to the copy chain only",
          "[rules][SL207]") {
  ChurnScenario s;
  s.style = CopyStyle::kMemcpy;
  const RuleRun memcpy = runRuleOnJson("SL207", churnSteps(s));
  REQUIRE(memcpy.diagnostics.size() == 1);
  CHECK(metricOf(memcpy.diagnostics[0], "memcpy_dtod_per_step") == Approx(100));
  CHECK(memcpy.diagnostics[0].message.find("most from aten::copy_") != std::string::npos);

  s.style = CopyStyle::kContiguousInConv;
  const RuleRun nested = runRuleOnJson("SL207", churnSteps(s));
  REQUIRE(nested.diagnostics.size() == 1);
  const auto& d = nested.diagnostics[0];
  CHECK(d.message.find("most from aten::contiguous") != std::string::npos);
  // The host time removed is contiguous's 6 µs per copy, not conv2d's 7.
  CHECK(metricOf(d, "host_ms_per_step") == Approx(0.6).margin(1e-6));
  REQUIRE_FALSE(d.evidence.ranges.empty());
  CHECK(d.evidence.ranges[0].end_ns - d.evidence.ranges[0].start_ns == 6000);
}

TEST_CASE("SL207 is silent for casts, few copies and large copies", "[rules][SL207]") {
  ChurnScenario cast;
  cast.style = CopyStyle::kCast;  // aten::to > _to_copy > copy_: a conversion, not churn
  CHECK(runRuleOnJson("SL207", churnSteps(cast)).diagnostics.empty());
  ChurnScenario few;
  few.copies = 40;
  CHECK(runRuleOnJson("SL207", churnSteps(few)).diagnostics.empty());
  CHECK(
      runRuleOnJson("SL207", churnSteps(few), {{"min-copies-per-step", 40.0}}).diagnostics.size() ==
      1);
  ChurnScenario large;
  large.copy_us = 25;  // not small: bandwidth work
  CHECK(runRuleOnJson("SL207", churnSteps(large)).diagnostics.empty());
}

TEST_CASE("SL207: DDP's reducer copying each gradient out of its bucket (HTA's DDP trace)",
          "[rules][SL207][fixture]") {
  const RuleRun run = runRuleOnFixture("SL207", "hta/nccl_parser_config/nccl_data.json.gz");
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(metricOf(d, "memcpy_dtod_per_step") == Approx(320));
  CHECK(metricOf(d, "copies_per_step") == Approx(320));
  CHECK(d.message.find(
            "most from aten::copy_ under torch.distributed.ddp.reducer::copy_bucket_to_grad") !=
        std::string::npos);
  REQUIRE_FALSE(d.fix.empty());
  CHECK(d.fix.front().find("gradient_as_bucket_view=True") != std::string::npos);
  CHECK(d.saving.per_step_ms > 0);
}

TEST_CASE("SL207: the ResNet-50 fixtures have no device-to-device copy churn",
          "[rules][SL207][fixture]") {
  CHECK(runRuleOnFixture("SL207", kResnetWorkers0).diagnostics.empty());
}

}  // namespace
}  // namespace steplint::test
