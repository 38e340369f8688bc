#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "../rule_test_util.h"
#include "kineto_trace.h"

using steplint::test::KinetoTrace;

namespace {

constexpr int64_t kMiB = 1024LL * 1024;
constexpr int64_t kGiB = 1024 * kMiB;

// `per_step.size()` steps of 1 ms on a 10 GiB GPU; step i's GPU allocator samples peak at
// per_step[i] (a sample at its start, its peak in the middle).
std::string gpuSteps(const std::vector<int64_t>& per_step) {
  KinetoTrace t;
  t.device(0, 8, 0, 10 * kGiB, "A10");
  for (size_t i = 0; i < per_step.size(); ++i) {
    const int64_t b = 1000 * static_cast<int64_t>(i);
    t.step(static_cast<int>(i) + 1, b, 1000);
    const int64_t op = t.op("aten::mm", b + 10, 50).lastExternalId();
    t.launch(op, b + 20, 5, "sm80_xmma_gemm", b + 30, 500);
    t.memory(b + 100, per_step[i] / 2).memory(b + 500, per_step[i]);
  }
  return t.str();
}

std::vector<int64_t> linear(int64_t start, int64_t per_step, size_t steps) {
  std::vector<int64_t> v;
  for (size_t i = 0; i < steps; ++i) v.push_back(start + per_step * static_cast<int64_t>(i));
  return v;
}

}  // namespace

TEST_CASE("SL404 flags GPU memory that rises every step, with the steps left until the GPU is full",
          "[rules][SL404]") {
  const auto run = steplint::test::runRuleOnJson("SL404", gpuSteps(linear(kGiB, 64 * kMiB, 10)));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "GPU 0 allocated memory grows 64.0 MiB per step (1.00 GiB -> 1.56 GiB over 10 steps, rising "
      "in 9 of 9); at this rate the GPU's 10.00 GiB fill in about 135 more steps");
  CHECK(d.evidence.metric("growth_bytes_per_step") == Approx(64.0 * kMiB));
  CHECK(d.evidence.steps == std::vector<int64_t>{1, 10});
  CHECK_FALSE(d.saving.known());
  CHECK_FALSE(d.saving.method.empty());
  CHECK(d.fingerprint_key == "GPU 0 allocated memory");
}

TEST_CASE("SL404 is silent for flat memory, allocator warm-up, small or noisy growth",
          "[rules][SL404]") {
  CHECK(steplint::test::runRuleOnJson("SL404", gpuSteps(linear(kGiB, 0, 10))).diagnostics.empty());
  // Warm-up: rises in the first 3 steps, then flat.
  std::vector<int64_t> warm = {kGiB / 2, 3 * kGiB / 4, kGiB, kGiB, kGiB,
                               kGiB,     kGiB,         kGiB, kGiB, kGiB};
  CHECK(steplint::test::runRuleOnJson("SL404", gpuSteps(warm)).diagnostics.empty());
  // 1 MiB per step: below min-growth-mib (16) over 10 steps, flagged with a lower threshold.
  CHECK(
      steplint::test::runRuleOnJson("SL404", gpuSteps(linear(kGiB, kMiB, 10))).diagnostics.empty());
  CHECK(steplint::test::runRuleOnJson("SL404", gpuSteps(linear(64 * kMiB, kMiB, 10)),
                                      {{"min-growth-mib", 8.0}})
            .diagnostics.size() == 1);
  // Up and down around a rising mean: only half the changes rise.
  std::vector<int64_t> saw;
  for (int i = 0; i < 10; ++i) saw.push_back(kGiB + 40 * kMiB * i + (i % 2 ? -100 * kMiB : 0));
  CHECK(steplint::test::runRuleOnJson("SL404", gpuSteps(saw)).diagnostics.empty());
}

TEST_CASE("SL404 reads steplint record's host memory counter", "[rules][SL404]") {
  KinetoTrace t;
  for (int i = 0; i < 8; ++i) {
    const int64_t b = 1000 * i;
    t.step(i + 1, b, 1000).op("aten::addmm", b + 10, 500);
    t.counter("Host memory (steplint)", static_cast<double>(b + 1), "rss_bytes",
              400 * kMiB + 32 * kMiB * i);
  }
  const auto run = steplint::test::runRuleOnJson("SL404", t.str());
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(
      run.diagnostics[0].message ==
      "host resident memory (RSS) grows 32.0 MiB per step (400.0 MiB -> 624.0 MiB over 8 steps, rising in 7 of 7)");
}

TEST_CASE("SL404 is not checked without memory samples in enough steps", "[rules][SL404]") {
  KinetoTrace none;
  none.device(0, 8, 0).step(1, 0, 100).step(2, 100, 100);
  const auto run = steplint::test::runRuleOnJson("SL404", none.str());
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].find("profile_memory=True") != std::string::npos);
  CHECK(steplint::test::runRuleOnJson("SL404", gpuSteps(linear(kGiB, 64 * kMiB, 4)))
            .not_checked.size() == 1);
  KinetoTrace legacy;
  for (int i = 0; i < 6; ++i) legacy.step(i + 1, 1000 * i, 1000).legacyMemory(1000 * i + 10, 4096);
  const auto old = steplint::test::runRuleOnJson("SL404", legacy.str());
  REQUIRE(old.not_checked.size() == 1);
  CHECK(old.not_checked[0].find("no Total Allocated") != std::string::npos);
}

TEST_CASE("SL404 on the legacy profiler's export names the format, not profile_memory",
          "[rules][SL404]") {
  // h7 D6: torch 1.13 without Kineto writes no memory events whatever profile_memory says; the
  // reason asked for profile_memory=True, which the user had set.
  std::string json = "[";
  for (int i = 0; i < 6; ++i) {
    const std::string ts = std::to_string(1000 * i);
    json += std::string(i ? ", " : "") + "{\"name\": \"ProfilerStep#" + std::to_string(i + 1) +
            "\", \"ph\": \"X\", \"ts\": " + ts +
            ", \"dur\": 1000, \"tid\": 1, \"pid\": \"CPU functions\", \"args\": {}}, "
            "{\"name\": \"aten::mm\", \"ph\": \"X\", \"ts\": " +
            std::to_string(1000 * i + 10) +
            ", \"dur\": 500, \"tid\": 1, \"pid\": \"CPU functions\", \"args\": {}}";
  }
  const auto run = steplint::test::runRuleOnJson("SL404", json + "]");
  REQUIRE(run.not_checked.size() == 1);
  CHECK(run.not_checked[0].rfind("the trace is the legacy profiler's export", 0) == 0);
  CHECK(run.not_checked[0].find("carries no memory events whatever profile_memory says") !=
        std::string::npos);
  CHECK(run.not_checked[0].find("steplint record") != std::string::npos);
  CHECK(run.not_checked[0].find("profile_memory=True") == std::string::npos);
}

TEST_CASE("SL404: steplint's GPU recordings have flat per-step peaks", "[rules][SL404]") {
  for (const char* name : {"fast_trainer_marked", "slow_trainer_marked"}) {
    const auto run = steplint::test::runRuleOnFile(
        "SL404", steplint::test::testDataPath(std::string("gpu/") + name + ".pt.trace.json.gz"));
    INFO(name);
    CHECK(run.diagnostics.empty());
    CHECK(run.not_checked.empty());
  }
}
