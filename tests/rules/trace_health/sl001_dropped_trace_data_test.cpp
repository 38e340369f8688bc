#include <catch2/catch.hpp>

#include "../rule_fixtures.h"
#include "kineto_trace.h"

namespace steplint::test {
namespace {

std::string smallTrace() {
  KinetoTrace t;
  t.device(0);
  forEachStep(t, 3, 1000, [&](int, double b) {
    t.op("aten::mm", b + 10, 100).kernel(b + 20, 10, b + 50, 500);
  });
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

TEST_CASE("SL001: a well-formed trace without events is an error, not \"no findings\"",
          "[rules][SL001]") {
  // What a profiler stopped before its schedule's active steps writes: metadata and an instant.
  const RuleRun run = runRuleOnJson(
      "SL001",
      R"({"schemaVersion": 1, "traceEvents": [{"name": "thread_name", "ph": "M", "ts": 0, "pid": 9,)"
      R"( "tid": 9, "args": {"name": "thread 9"}}, {"name": "Record Window End", "ph": "i", "s": "g",)"
      R"( "pid": "", "tid": "", "ts": 1736417948403182}]})");
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.severity == analyzer::Severity::kError);
  CHECK(d.message ==
        "the trace holds no events: nothing of the run was recorded, so nothing was checked");
  CHECK(d.fingerprint_key == "no-events");
  CHECK_FALSE(d.saving.known());
  CHECK(runRuleOnJson("SL001", smallTrace()).diagnostics.empty());
}

bool anyFixMentions(const analyzer::Diagnostic& d, const std::string& text) {
  for (const std::string& f : d.fix)
    if (f.find(text) != std::string::npos) return true;
  return false;
}

std::string recordedTrace(const std::string& key, const std::string& raw_value) {
  KinetoTrace t;
  t.device(0).metadata(key, raw_value);
  for (int s = 0; s < 3; ++s) t.step(s + 1, 1000.0 * s, 1000).op("aten::mm", 1000.0 * s + 10, 100);
  return t.str();
}

TEST_CASE(
    "SL001: host events dropped at the collector's buffer cap, with the count and the cap's fix",
    "[rules][SL001]") {
  const RuleRun run = runRuleOnJson("SL001", recordedTrace("steplint_dropped_events", "13852"));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "trace data was lost while recording (13852 host events dropped at the collector's buffer cap); "
      "every figure below is a lower bound");
  CHECK(d.evidence.metric("recorder_dropped_events") == Approx(13852));
  CHECK(d.evidence.metric("events_dropped_or_changed") == Approx(0));
  CHECK(anyFixMentions(d, "STEPLINT_MAX_BUFFER_MB"));
  CHECK(anyFixMentions(d, "STEPLINT_FLUSH_MS"));
  CHECK_FALSE(anyFixMentions(d, "disableProfiler"));  // the file is complete: no truncation advice
  CHECK(d.evidence.steps.size() == 3);
}

TEST_CASE("SL001: GPU records dropped by CUPTI", "[rules][SL001]") {
  const RuleRun run =
      runRuleOnJson("SL001", recordedTrace("steplint_dropped_activity_records", "30600"));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message.find("(30600 GPU activity records dropped by CUPTI)") != std::string::npos);
  CHECK(d.evidence.metric("recorder_dropped_gpu_records") == Approx(30600));
  CHECK(anyFixMentions(d, "--schedule"));
  CHECK(anyFixMentions(d, "STEPLINT_CUPTI_DRIVER=0"));
}

TEST_CASE("SL001: a recording stopped early names the collector's reason", "[rules][SL001]") {
  const RuleRun run = runRuleOnJson(
      "SL001", recordedTrace("steplint_stopped_early", R"J("the output disk is full (ENOSPC)")J"));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(
      d.message ==
      "trace data was lost while recording (recording stopped before the program ended (the output disk is "
      "full (ENOSPC))); every figure below is a lower bound");
  CHECK(d.evidence.metric("recorder_stopped_early") == Approx(1));
  CHECK(anyFixMentions(d, "the collector stopped early because: the output disk is full (ENOSPC)"));
}

TEST_CASE("SL001: recorder loss and a truncated file are both named", "[rules][SL001]") {
  const std::string full = recordedTrace("steplint_dropped_events", "5");
  const RuleRun run = runRuleOnJson("SL001", full.substr(0, full.size() - 40));
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics[0];
  CHECK(d.message.rfind(
            "trace data was lost while recording and during import (5 host events dropped at the "
            "collector's buffer cap; json_truncated: ",
            0) == 0);
  CHECK(d.evidence.metric("recorder_dropped_events") == Approx(5));
  CHECK(d.evidence.metric("json_truncated") == Approx(1));
  CHECK(anyFixMentions(d, "STEPLINT_MAX_BUFFER_MB"));
  CHECK(anyFixMentions(d, "disableProfiler"));
}

TEST_CASE("SL001: zero or unreadable recorder counts are no data loss", "[rules][SL001]") {
  CHECK(runRuleOnJson("SL001", recordedTrace("steplint_dropped_events", "0")).diagnostics.empty());
  CHECK(runRuleOnJson("SL001", recordedTrace("steplint_dropped_events", "\"lots\""))
            .diagnostics.empty());
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
