#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// Two 1 ms steps with two conv2d ops of `op_us` each and no kernel; deviceProperties optional.
std::string cpuConvs(double op_us, bool gpu_props = true) {
  KinetoTrace t;
  if (gpu_props) t.device(0, 8, 0, 85899345920, "NVIDIA A100");
  forEachStep<0>(t, 2, 1000, [&](int, double base) {
    t.op("aten::conv2d", base + 10, op_us);
    t.op("aten::convolution", base + 11, op_us - 2);
    t.op("aten::conv2d", base + 500, op_us);
  });
  return t.str();
}

}  // namespace

TEST_CASE("SL604 flags conv/matmul computed on the CPU while a GPU is present") {
  const auto run = steplint::test::runRuleOnJson("SL604", cpuConvs(300));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "NVIDIA A100 is present but no kernel ran: conv/matmul ops compute on the CPU for 0.6 ms per "
      "step (60.0% of the step, median 300 µs per op)");
  CHECK(d.saving.per_step_ms == Approx(0.48));  // 0.6 ms x (1 - 1/5)
}

TEST_CASE("SL604 is silent for short (launch-only) ops, and not checked without GPU information") {
  CHECK(steplint::test::runRuleOnJson("SL604", cpuConvs(40)).diagnostics.empty());
  const auto run = steplint::test::runRuleOnJson("SL604", cpuConvs(300, false));
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.size() == 1);
  const auto cpu = steplint::test::loadFixture(steplint::test::kCpuOnly);
  CHECK(steplint::test::runRule("SL604", cpu).not_checked.size() == 1);
  const auto resnet = steplint::test::loadFixture(steplint::test::kResnetWorkers0);  // kernels ran
  const auto r = steplint::test::runRule("SL604", resnet);
  CHECK(r.diagnostics.empty());
  CHECK(r.not_checked.empty());
}
