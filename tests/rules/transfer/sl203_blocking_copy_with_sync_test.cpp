#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "copy_scenarios.h"

namespace steplint::test {
namespace {

TEST_CASE("SL203: a pageable copy followed by a stream sync blocks the host", "[rules][SL203]") {
  const RuleRun run = runRuleOnJson("SL203", hostToDeviceCopySteps("Pageable", true));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "1 copy to the device per step blocks the host for 2.10 ms/step (1 from pageable memory, 1 followed by a "
      "stream synchronize in the same op); the GPU then idles 0.45 ms/step until the next launch");
  // Replayed: the copy call [130, 2130) no longer blocks (it still costs the 80 µs after the
  // copy's end); the host, the bottleneck of this 10 ms step, gets 1.92 ms back. The GPU (copy
  // then conv, 7.9 ms) is still shorter than the host's remaining 8.08 ms.
  CHECK(d.saving.per_step_ms == Approx(1.92).margin(1e-6));
  CHECK(d.evidence.metric("host_blocked_ms_per_step") == Approx(2.1).margin(1e-6));
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
  CHECK(d.evidence.events.size() == 9);  // per step: the copy call, the sync, aten::to
  CHECK(d.fingerprint_key == "blocking-copy-to-device");
}

TEST_CASE("SL203: a pinned copy followed by a sync is still blocking", "[rules][SL203]") {
  const RuleRun run = runRuleOnJson("SL203", hostToDeviceCopySteps("Pinned", true, 3, 7, 20));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message.find("(1 followed by a stream synchronize in the same op)") !=
        std::string::npos);
  CHECK(run.diagnostics[0].evidence.metric("host_blocked_ms_per_step") ==
        Approx(0.12).margin(1e-6));
}

TEST_CASE("SL203: a non-blocking copy from pinned memory is not flagged", "[rules][SL203]") {
  CHECK(
      runRuleOnJson("SL203", hostToDeviceCopySteps("Pinned", false, 3, 7, 20)).diagnostics.empty());
}

TEST_CASE("SL203: device-to-host copies with a sync are left to SL202", "[rules][SL203]") {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 2, 10000, [&](int, double b) {
    t.kernel(b + 10, 10, b + 50, 1000);
    t.op("aten::copy_", b + 100, 1200)
        .copy("DtoH", "Device", "Pageable", b + 110, 1000, b + 1050, 50, 4);
    t.runtime("cudaStreamSynchronize", b + 1120, 50);
  });
  CHECK(runRuleOnJson("SL203", t.str()).diagnostics.empty());
}

TEST_CASE("SL203: synchronous copy APIs and bare calls without ops (LibTorch) are found",
          "[rules][SL203]") {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 2, 10000, [&](int, double b) {
    t.copy("HtoD", "Pinned", "Device", b + 100, 300, b + 150, 200, 1 << 20,
           "cudaMemcpy");                                                    // blocks by itself
    t.copy("HtoD", "Pinned", "Device", b + 500, 20, b + 550, 200, 1 << 20);  // async ...
    t.runtime("cudaStreamSynchronize", b + 530, 230);                        // ... then synced
    t.kernel(b + 1000, 10, b + 1100, 500);
  });
  const RuleRun run = runRuleOnJson("SL203", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message.find(
          "(1 followed by a stream synchronize in the same op, 1 through a synchronous copy API)") !=
      std::string::npos);
  CHECK(d.evidence.metric("host_blocked_ms_per_step") ==
        Approx(0.55).margin(1e-6));  // 300 + 20 + 230
  // Replayed: cudaMemcpy [100, 400) stops waiting for its copy ([150, 350)): 250 µs; the
  // synchronize [530, 760) stops waiting for the async copy ending at 750: 220 µs.
  CHECK(d.saving.per_step_ms == Approx(0.47).margin(1e-6));
}

TEST_CASE("SL203: threshold option", "[rules][SL203]") {
  CHECK(runRuleOnJson("SL203", hostToDeviceCopySteps("Pageable", true),
                      {{"min-blocked-ms-per-step", 3.0}})
            .diagnostics.empty());
}

TEST_CASE("SL203: ResNet-50 with 0 workers blocks on both input copies",
          "[rules][SL203][fixture]") {
  const RuleRun run = runRuleOnFixture("SL203", kResnetWorkers0);
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  INFO(d.message);
  CHECK(d.message.rfind("2 copies to the device per step block the host for 2.1", 0) == 0);
  CHECK(
      d.message.find("2 from pageable memory, 2 followed by a stream synchronize in the same op") !=
      std::string::npos);
  CHECK(d.evidence.metric("host_blocked_ms_per_step") == Approx(2.10).margin(0.05));
  CHECK(d.saving.per_step_ms > 0.05);
  CHECK(d.saving.per_step_ms < 1.0);
}

TEST_CASE("SL203: the CPU-only HTA trace is not checked", "[rules][SL203][fixture]") {
  const RuleRun run = runRuleOnFixture("SL203", kCpuOnly);
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked == std::vector<std::string>{"no GPU activity in this trace"});
}

}  // namespace
}  // namespace steplint::test
