#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::forEachStep;
using steplint::test::KinetoTrace;

namespace {

// DDP over `comm` ("gloo:all_reduce" or "nccl:all_reduce"): 200 µs of exposed collective per 1 ms
// step.
std::string ddp(const std::string& comm, const std::string& backend, int major = 7) {
  KinetoTrace t;
  t.device(0, major, 0);
  t.metadata("distributedInfo",
             "{\"backend\": \"" + backend + "\", \"rank\": 0, \"world_size\": 2}");
  forEachStep<0>(t, 2, 1000, [&](int, double base) {
    t.annotation("DistributedDataParallel.forward", base + 5, 100);
    const int64_t a = t.op("aten::mm", base + 10, 20).lastExternalId();
    t.launch(a, base + 12, 5, "volta_sgemm_64x64_nt", base + 20, 300);
    t.annotation(comm, base + 500, 200);
  });
  return t.str();
}

}  // namespace

TEST_CASE("SL502 flags DDP on GPUs over gloo") {
  const auto run = steplint::test::runRuleOnJson("SL502", ddp("gloo:all_reduce", "gloo"));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "DistributedDataParallel runs on GPUs without NCCL (backend: gloo, 2 gloo collectives); "
        "0.2 ms per step of communication is exposed");
  CHECK(d.saving.per_step_ms == Approx(0.1));  // 0.2 ms x (1 - 1/2)
}

TEST_CASE("SL502 is silent with NCCL or on GPUs older than sm_35") {
  CHECK(steplint::test::runRuleOnJson("SL502", ddp("nccl:all_reduce", "")).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL502", ddp("gloo:all_reduce", "nccl")).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL502", ddp("gloo:all_reduce", "gloo", 3))
            .diagnostics.empty());
  const auto model = steplint::test::loadFixture(steplint::test::kNcclDdp);
  CHECK(steplint::test::runRule("SL502", model).diagnostics.empty());
  const auto cpu = steplint::test::loadFixture(steplint::test::kCpuOnly);
  CHECK(steplint::test::runRule("SL502", cpu).not_checked.size() == 1);
}
