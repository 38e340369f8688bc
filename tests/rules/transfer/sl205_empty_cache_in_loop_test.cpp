#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

// Each step: a kernel; when `empty_cache`, torch.cuda.empty_cache() [5000, 5300) with three
// cudaFree calls inside; when `frees` > 0 and no range, that many bare cudaFree calls of
// 50 µs; then two cudaMalloc calls of 40 µs at 6000 and 6100.
std::string allocatorSteps(const std::vector<bool>& empty_cache, int frees = 0) {
  KinetoTrace t;
  t.device(0);
  for (size_t s = 0; s < empty_cache.size(); ++s) {
    const double b = 10000.0 * static_cast<double>(s);
    t.step(static_cast<int>(s) + 1, b, 10000).kernel(b + 100, 10, b + 200, 1000);
    if (empty_cache[s]) {
      t.python("torch/cuda/memory.py(192): empty_cache", b + 5000, 300);
      for (int i = 0; i < 3; ++i) t.runtime("cudaFree", b + 5010 + 100 * i, 50);
    }
    for (int i = 0; i < frees; ++i) t.runtime("cudaFree", b + 7000 + 100 * i, 50);
    if (empty_cache[s] || frees > 0)
      t.runtime("cudaMalloc", b + 6000, 40).runtime("cudaMalloc", b + 6100, 40);
  }
  return t.str();
}

TEST_CASE("SL205: empty_cache() in every step is flagged with its host cost", "[rules][SL205]") {
  const RuleRun run = runRuleOnJson("SL205", allocatorSteps({true, true, true}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "empty_cache() runs in 3 of 3 steps: 3 cudaFree + 2 cudaMalloc calls/step cost 0.38 ms/step of "
      "host time");
  CHECK(d.saving.per_step_ms ==
        Approx(0.38).margin(1e-6));  // the 300 µs range + 2 x 40 µs cudaMalloc
  CHECK(d.fingerprint_key == "empty-cache");
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("SL205: a cudaFree storm without an empty_cache range is flagged", "[rules][SL205]") {
  const RuleRun run = runRuleOnJson("SL205", allocatorSteps({false, false}, 4));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message.rfind("cudaFree runs in 2 of 2 steps: 4 cudaFree + 2 cudaMalloc",
                                         0) == 0);
  CHECK(run.diagnostics[0].saving.per_step_ms == Approx(0.28).margin(1e-6));
  CHECK(run.diagnostics[0].fingerprint_key == "cuda-free-storm");
}

TEST_CASE("SL205: a single empty_cache() in one of four steps is not flagged", "[rules][SL205]") {
  CHECK(runRuleOnJson("SL205", allocatorSteps({true, false, false, false})).diagnostics.empty());
  CHECK(runRuleOnJson("SL205", allocatorSteps({false, false, false})).diagnostics.empty());
}

TEST_CASE("SL205: ResNet-50 does not empty the cache", "[rules][SL205][fixture]") {
  CHECK(runRuleOnFixture("SL205", kResnetWorkers0).diagnostics.empty());
}

TEST_CASE("SL205: the CPU-only HTA trace is not checked", "[rules][SL205][fixture]") {
  CHECK(runRuleOnFixture("SL205", kCpuOnly).not_checked ==
        std::vector<std::string>{"no GPU activity in this trace"});
}

}  // namespace
}  // namespace steplint::test
