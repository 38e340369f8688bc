#include <catch2/catch.hpp>

#include "../transfer/fixture_run.h"
#include "../transfer/kineto_trace.h"

namespace steplint::test {
namespace {

std::string smallTrace() {
  KinetoTrace t;
  t.device(0);
  for (int s = 0; s < 3; ++s) {
    const double b = 1000.0 * s;
    t.step(s + 1, b, 1000).op("aten::mm", b + 10, 100).kernel(b + 20, 10, b + 50, 500);
  }
  return t.str();
}

TEST_CASE("SL001: a truncated trace is an error that names the lost data", "[rules][SL001]") {
  const std::string full = smallTrace();
  const std::string truncated = full.substr(0, full.size() - 60);  // cut inside the last event
  const RuleRun run = runRuleOnJson("SL001", truncated);
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.severity == analyzer::Severity::kError);
  CHECK(d.message.rfind("trace data was lost during import (json_truncated: ", 0) == 0);
  CHECK(d.message.find("every figure below is a lower bound") != std::string::npos);
  CHECK(d.evidence.metric("json_truncated") == Approx(1));
  CHECK_FALSE(d.saving.known());
  CHECK(d.fingerprint_key == "import-data-loss");
}

TEST_CASE("SL001: a complete trace has no finding", "[rules][SL001]") {
  const RuleRun run = runRuleOnJson("SL001", smallTrace());
  CHECK(run.diagnostics.empty());
  CHECK(run.not_checked.empty());
}

TEST_CASE("SL001: the ResNet-50 fixtures are complete", "[rules][SL001][fixture]") {
  CHECK(runRuleOnFixture("SL001", kResnetWorkers0).diagnostics.empty());
  CHECK(runRuleOnFixture("SL001", kCpuOnly).diagnostics.empty());
}

}  // namespace
}  // namespace steplint::test
