#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::KinetoTrace;

namespace {

constexpr int64_t kGiB = 1024LL * 1024 * 1024;

// One step with one kernel on a 10 GiB GPU; GPU memory rises to `gpu_peak`, CPU memory to
// `cpu_peak`.
KinetoTrace tenGiBGpu(int64_t gpu_peak, int64_t cpu_peak = 0) {
  KinetoTrace t;
  t.device(0, 8, 0, 10 * kGiB, "A10");
  t.step(1, 0, 1000);
  const int64_t op = t.op("aten::mm", 10, 50).lastExternalId();
  t.launch(op, 20, 5, "sm80_xmma_gemm", 30, 500);
  t.memory(100, gpu_peak / 2).memory(200, gpu_peak).memory(300, gpu_peak / 4);
  if (cpu_peak > 0) t.memory(150, cpu_peak, /*device_type=*/0, /*device_id=*/-1);
  return t;
}

}  // namespace

TEST_CASE("SL401 flags a GPU whose peak allocated memory exceeds 90% of totalGlobalMem") {
  const auto run = steplint::test::runRuleOnJson("SL401", tenGiBGpu(95 * kGiB / 10).str());
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message == "GPU 0 peak allocated memory is 9.50 GiB, 95.0% of its 10.0 GiB");
  CHECK(d.evidence.metric("peak_fraction") == Approx(0.95));
  CHECK_FALSE(d.saving.known());
  CHECK_FALSE(d.saving.method.empty());
  CHECK(d.fingerprint_key == "gpu0");
}

TEST_CASE("SL401 is silent below the threshold and never compares CPU memory with a GPU (TB-Q5)") {
  CHECK(steplint::test::runRuleOnJson("SL401", tenGiBGpu(5 * kGiB).str()).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL401", tenGiBGpu(95 * kGiB / 10).str(),
                                      {{"max-fraction", 0.96}})
            .diagnostics.empty());
  const auto run = steplint::test::runRuleOnJson("SL401", tenGiBGpu(kGiB, 40 * kGiB).str());
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL401 is not checked without memory events, capacity, or totals") {
  KinetoTrace none;
  none.device(0, 8, 0).step(1, 0, 100);
  CHECK(steplint::test::runRuleOnJson("SL401", none.str()).not_checked.size() == 1);
  KinetoTrace cpu_only;  // a CPU trace says why in the same words as the other GPU rules
  cpu_only.step(1, 0, 100);
  const auto cpu_run = steplint::test::runRuleOnJson("SL401", cpu_only.str());
  REQUIRE(cpu_run.not_checked.size() == 1);
  CHECK(cpu_run.not_checked[0] == "no GPU activity in this trace");
  KinetoTrace no_props;
  no_props.step(1, 0, 100).memory(10, kGiB);
  CHECK(steplint::test::runRuleOnJson("SL401", no_props.str()).not_checked.size() == 1);
  // legacy events: +3 GiB, -1 GiB, +2 GiB -> at least 4 GiB, 40% of 10 GiB: undecided
  KinetoTrace legacy;
  legacy.device(0, 8, 0, 10 * kGiB).step(1, 0, 100);
  legacy.legacyMemory(10, 3 * kGiB).legacyMemory(20, -kGiB).legacyMemory(30, 2 * kGiB);
  const auto run = steplint::test::runRuleOnJson("SL401", legacy.str());
  CHECK(run.diagnostics.empty());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("at least 4.00 GiB (40.0% of 10.0 GiB)") != std::string::npos);
  // ... but a lower bound above 90% decides
  KinetoTrace full;
  full.device(0, 8, 0, 10 * kGiB).step(1, 0, 100);
  full.legacyMemory(10, 6 * kGiB).legacyMemory(20, 35 * kGiB / 10);
  const auto fired = steplint::test::runRuleOnJson("SL401", full.str());
  REQUIRE(fired.diagnostics.size() == 1);
  CHECK(fired.diagnostics[0].message.find("at least 9.50 GiB") != std::string::npos);
}

TEST_CASE("SL401 on the ResNet-50 fixtures: no finding") {
  for (const char* f : {steplint::test::kResnetWorkers0, steplint::test::kResnetWorkers4}) {
    const auto model = steplint::test::loadFixture(f);
    CHECK(steplint::test::runRule("SL401", model).diagnostics.empty());
  }
}
