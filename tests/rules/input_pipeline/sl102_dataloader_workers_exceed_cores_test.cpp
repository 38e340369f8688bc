#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

// Two steps; the counts come from top-level metadata only.
std::string withMetadata(const std::vector<std::pair<std::string, std::string>>& meta) {
  KinetoTrace t;
  for (const auto& [key, raw] : meta) t.metadata(key, raw);
  for (int s = 0; s < 2; ++s)
    t.step(s + 1, 10000.0 * s, 10000).op("aten::conv2d", 10000.0 * s + 100, 5000);
  return t.str();
}

TEST_CASE("SL102: 8 workers on 4 cores is flagged with a worker count that fits",
          "[rules][SL102]") {
  const RuleRun run =
      runRuleOnJson("SL102", withMetadata({{"cpu_cores", "4"}, {"dataloader_workers", "8"}}));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message ==
        "8 DataLoader workers + 1 training process on 4 CPU cores: 9 processes want a core each");
  CHECK(metricOf(d, "recommended_workers") == 3);
  CHECK_FALSE(d.saving.known());
  CHECK(d.fix[0].find(".workers(3)") != std::string::npos);
  CHECK(d.fingerprint_key == "dataloader-workers");
}

TEST_CASE("SL102: counts at the end of int64 in a trace's metadata do not overflow",
          "[rules][SL102]") {
  // (workers + 1) x processes was computed in int64: undefined behaviour on these (UBSan).
  const RuleRun run =
      runRuleOnJson("SL102", withMetadata({{"cpu_cores", "4"},
                                           {"dataloader_workers", "9223372036854775807"},
                                           {"local_world_size", "4611686018427387904"}}));
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(run.diagnostics[0].message.find("9223372036854775807 processes want a core each") !=
        std::string::npos);
}

TEST_CASE("SL102: workers that fit the cores are not flagged", "[rules][SL102]") {
  const RuleRun run =
      runRuleOnJson("SL102", withMetadata({{"cpu_cores", "16"}, {"dataloader_workers", "\"8\""}}));
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL102: processes per host multiply the workers", "[rules][SL102]") {
  const auto json =
      withMetadata({{"cpu_cores", "32"}, {"num_workers", "8"}, {"local_world_size", "4"}});
  const RuleRun run = runRuleOnJson("SL102", json);
  REQUIRE(run.diagnostics.size() == 1);
  CHECK(
      run.diagnostics[0].message ==
      "8 DataLoader workers + 1 training process, x 4 processes on this host on 32 CPU cores: 36 processes want "
      "a core each");
  CHECK(metricOf(run.diagnostics[0], "recommended_workers") == 7);
  CHECK(runRuleOnJson("SL102", json, {{"processes-per-host", int64_t{2}}}).diagnostics.empty());
}

TEST_CASE("SL102: the cpu-cores option overrides the trace", "[rules][SL102]") {
  const auto json = withMetadata({{"cpu_cores", "64"}, {"dataloader_workers", "8"}});
  CHECK(runRuleOnJson("SL102", json).diagnostics.empty());
  CHECK(runRuleOnJson("SL102", json, {{"cpu-cores", int64_t{8}}}).diagnostics.size() == 1);
}

TEST_CASE("SL102: unknown counts are not checked, with the way to record them", "[rules][SL102]") {
  const RuleRun no_workers = runRuleOnJson("SL102", withMetadata({{"cpu_cores", "4"}}));
  REQUIRE(no_workers.not_checked.size() == 1);
  CHECK(no_workers.not_checked[0].find("steplint::annotate(\"dataloader_workers\", N)") !=
        std::string::npos);
  const RuleRun no_cores = runRuleOnJson("SL102", withMetadata({{"dataloader_workers", "4"}}));
  REQUIRE(no_cores.not_checked.size() == 1);
  CHECK(no_cores.not_checked[0].find("CPU core count is unknown") != std::string::npos);
  const RuleRun garbage = runRuleOnJson(
      "SL102", withMetadata({{"cpu_cores", "4"}, {"dataloader_workers", "\"many\""}}));
  CHECK(garbage.diagnostics.empty());
  CHECK(garbage.not_checked.size() == 1);
}

TEST_CASE("SL102: torch.profiler traces carry neither count", "[rules][SL102][fixture]") {
  CHECK(runRuleOnFixture("SL102", kResnetWorkers4).not_checked.size() == 1);
}

}  // namespace
}  // namespace steplint::test
