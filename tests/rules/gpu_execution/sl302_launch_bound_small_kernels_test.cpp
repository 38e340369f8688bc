#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// Two 2 ms steps of `n` ops, each launching a `kernel_us` kernel; the host issues one launch
// every `every_us` µs, so the GPU drains between kernels when kernel_us < every_us.
std::string tinyKernels(int n, double kernel_us, double every_us) {
  KinetoTrace t;
  t.device(0, 8, 0);
  forEachStep<0>(t, 2, 2000, [&](int, double base) {
    for (int i = 0; i < n; ++i) {
      const double ts = base + 10 + every_us * i;
      const int64_t op = t.op("aten::add_", ts, every_us - 2).lastExternalId();
      t.launch(op, ts + 1, 4, "vectorized_elementwise_kernel", ts + 6, kernel_us);
    }
  });
  return t.str();
}

}  // namespace

TEST_CASE("SL302 flags many tiny kernels separated by launch gaps") {
  const auto run = steplint::test::runRuleOnJson("SL302", tinyKernels(150, 3, 12));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.message.find("GPU 0 runs 150 kernels per step with a median of 3.0 µs") !=
        std::string::npos);
  // 149 gaps of 12 - 3 = 9 µs per step, plus step 0's leading 16 µs gap (step 1's leading gap
  // of 209 µs is longer than launch-gap-us): (2 x 1341 + 16) / 2 steps = 1349 µs per step
  CHECK(d.evidence.metric("launch_gap_ms_per_step") == Approx(1.349));
  // Replayed: the late launches' host work 10x shorter closes all but a few µs of those gaps.
  CHECK(d.saving.per_step_ms == Approx(1.3455).margin(1e-3));
  CHECK(d.saving.per_step_ms <= d.evidence.metric("launch_gap_ms_per_step"));
  CHECK(d.saving.low_ms < d.saving.per_step_ms);  // 2x at the low end
  CHECK(d.saving.fraction_of_step == Approx(d.saving.per_step_ms / 2.0));
}

TEST_CASE("SL302 is silent for long kernels, few kernels, or a busy GPU") {
  CHECK(steplint::test::runRuleOnJson("SL302", tinyKernels(150, 30, 40))
            .diagnostics.empty());  // median 30 µs
  CHECK(steplint::test::runRuleOnJson("SL302", tinyKernels(20, 3, 12))
            .diagnostics.empty());  // 20 per step
  CHECK(steplint::test::runRuleOnJson("SL302", tinyKernels(150, 3, 12),
                                      {{"max-median-kernel-us", 2.0}})
            .diagnostics.empty());
}

TEST_CASE("SL302 on the ResNet-50 fixtures") {
  for (const char* f : {steplint::test::kResnetWorkers0, steplint::test::kResnetWorkers4}) {
    const auto model = steplint::test::loadFixture(f);
    const auto run = steplint::test::runRule("SL302", model);
    for (const auto& d : run.diagnostics)
      WARN(f << ": " << d.message << " | saving " << d.saving.per_step_ms);
    CHECK(run.not_checked.empty());
  }
}
