#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "copy_scenarios.h"

namespace steplint::test {
namespace {

TEST_CASE("SL201: a pageable host-to-device copy per step is flagged with its bandwidth",
          "[rules][SL201]") {
  const RuleRun run = runRuleOnJson("SL201", hostToDeviceCopySteps("Pageable", true));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "1 pageable host-to-device copy per step (11.4 MiB/step, 1.90 ms of copy time at 6.3 GB/s)");
  // sm_70 -> PCIe 3.0 estimate 12 GB/s: 12 MB take 1.0 ms pinned; 1.9 - 1.0 = 0.9 ms saved.
  CHECK(d.saving.per_step_ms == Approx(0.9).margin(1e-6));
  CHECK(d.saving.fraction_of_step == Approx(0.09).margin(1e-3));
  CHECK(d.saving.method.find("12 GB/s") != std::string::npos);
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
  CHECK(d.evidence.metric("pageable_bytes_per_step") == Approx(12e6));
  CHECK(d.fingerprint_key == "pageable-htod");
  CHECK(d.fix.front().rfind("LibTorch", 0) == 0);
}

TEST_CASE("SL201: the pinned bandwidth follows the GPU generation and the option",
          "[rules][SL201]") {
  // sm_80 -> 24 GB/s: 0.5 ms pinned, 1.4 ms saved.
  const RuleRun ampere = runRuleOnJson("SL201", hostToDeviceCopySteps("Pageable", true, 3, 8));
  REQUIRE(ampere.diagnostics.size() == 1);
  CHECK(ampere.diagnostics[0].saving.per_step_ms == Approx(1.4).margin(1e-6));
  const RuleRun option =
      runRuleOnJson("SL201", hostToDeviceCopySteps("Pageable", true), {{"pinned-h2d-gbps", 6.0}});
  REQUIRE(option.diagnostics.size() == 1);
  CHECK(option.diagnostics[0].saving.per_step_ms ==
        Approx(0.0).margin(1e-6));  // 2.0 ms pinned > 1.9 ms: nothing
}

TEST_CASE("SL201: pinned copies and small pageable copies are not flagged", "[rules][SL201]") {
  CHECK(runRuleOnJson("SL201", hostToDeviceCopySteps("Pinned", false)).diagnostics.empty());
  // 12 MB per step is below a 16 MiB threshold.
  CHECK(runRuleOnJson("SL201", hostToDeviceCopySteps("Pageable", true),
                      {{"min-bytes-per-step", int64_t{16} << 20}})
            .diagnostics.empty());
}

TEST_CASE("SL201: a CPU-only trace is not checked", "[rules][SL201]") {
  KinetoTrace t;
  t.step(1, 0, 1000).op("aten::add", 10, 100);
  const RuleRun run = runRuleOnJson("SL201", t.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0] == "no GPU activity in this trace");
}

TEST_CASE("SL201: ResNet-50 with 0 workers copies 18.4 MiB/step from pageable memory",
          "[rules][SL201][fixture]") {
  const RuleRun run = runRuleOnFixture("SL201", kResnetWorkers0);
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.message.rfind("2 pageable host-to-device copies per step (18.4 MiB/step", 0) == 0);
  CHECK(d.evidence.metric("pageable_bytes_per_step") == Approx(19267584 + 256));
  CHECK(d.evidence.metric("measured_gbps") == Approx(10.0).margin(0.2));
  // V100 (sm_70): 12 GB/s pinned estimate -> the copies 0.3 ms shorter, but at each step's start
  // the host waits in the copy call for the GPU to finish the previous step's work first, so
  // only about a quarter of that reaches the step.
  CHECK(d.saving.per_step_ms == Approx(0.08).margin(0.02));
  CHECK(d.evidence.steps == std::vector<int64_t>{5, 6, 7, 8, 9, 10});
}

TEST_CASE("SL201: the CPU-only HTA trace is not checked", "[rules][SL201][fixture]") {
  const RuleRun run = runRuleOnFixture("SL201", kCpuOnly);
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked == std::vector<std::string>{"no GPU activity in this trace"});
}

}  // namespace
}  // namespace steplint::test
