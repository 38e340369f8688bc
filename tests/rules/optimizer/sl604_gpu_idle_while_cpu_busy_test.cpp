#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// Two 1 ms steps with two conv2d ops of `op_us` each and no kernel; deviceProperties optional;
// runtime calls named `call` in each step (none when empty).
std::string cpuConvs(double op_us, bool gpu_props = true, const std::string& call = "") {
  KinetoTrace t;
  if (gpu_props) t.device(0, 8, 0, 85899345920, "NVIDIA A100");
  forEachStep<0>(t, 2, 1000, [&](int, double base) {
    t.op("aten::conv2d", base + 10, op_us);
    t.op("aten::convolution", base + 11, op_us - 2);
    if (!call.empty()) t.runtime(call, base + 12, 5);
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

TEST_CASE("SL604 is not checked when the GPU ran work the trace did not record") {
  // Kernel launches with no kernel in the trace (CUDA activity off, or CUPTI's profiler-counter
  // mode): the ops are slow on the host, but the GPU was used.
  for (const char* call : {"cudaLaunchKernel", "cuLaunchKernel", "cudaMemcpyAsync"}) {
    INFO(call);
    const auto run = steplint::test::runRuleOnJson("SL604", cpuConvs(300, true, call));
    CHECK(run.diagnostics.empty());
    REQUIRE(run.not_checked.size() == 1);
    CHECK(run.not_checked[0].find("kernel launch or copy calls but no GPU activity") !=
          std::string::npos);
  }
  // Calls that only set CUDA up leave the finding standing.
  CHECK(steplint::test::runRuleOnJson("SL604", cpuConvs(300, true, "cudaGetDeviceCount"))
            .diagnostics.size() == 1);
}

TEST_CASE("SL604 is not checked without conv/matmul ops, which SL002 relies on it to judge") {
  KinetoTrace t;
  t.device(0, 8, 9, 17171480576, "NVIDIA GeForce RTX 4080 SUPER");
  forEachStep<0>(t, 2, 1000, [&](int, double base) {
    t.op("aten::rand", base + 10, 300);
    t.op("aten::pow", base + 400, 300);
  });
  const auto run = steplint::test::runRuleOnJson("SL604", t.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0] ==
        "no conv/matmul ops in the steps: the CPU work that would show the GPU sat unused");
}
