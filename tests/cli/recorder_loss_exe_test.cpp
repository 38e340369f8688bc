// What `steplint summary` and `steplint check` say about a trace whose recording lost events
// (the collector's steplint_dropped_events / steplint_stopped_early): issue 12, item 4.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "run_steplint.h"

namespace steplint::test {
namespace {

// tiny_steps.json with the trailer of a recording that hit a 1 MiB buffer cap and then stopped.
const std::string kRecordedWithLoss = testDataPath("cli/recorded_with_loss.json");

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const nlohmann::json* findStat(const nlohmann::json& stats, const std::string& name) {
  for (const auto& s : stats)
    if (s.value("name", "") == name) return &s;
  return nullptr;
}

TEST_CASE("summary reports events lost while recording, in text and JSON", "[cli][recorder]") {
  const RunResult text = runSteplint({"summary", "--color", "never", kRecordedWithLoss});
  CHECK(text.exit_code == 0);
  CHECK(contains(text.out, "recorder_dropped_events"));
  CHECK(contains(text.out, "recorder_stopped_early"));
  CHECK_FALSE(contains(text.out, "nothing repaired, dropped or skipped"));
  CHECK(contains(
      text.out,
      "note: recording stopped early: the output file could not be written (No space left on "
      "device)"));
  CHECK(contains(text.err, "steplint: warning: " + kRecordedWithLoss +
                               ": 13852 x recorder_dropped_events [data-loss]: "));

  const RunResult json = runSteplint({"summary", "--format", "json", kRecordedWithLoss});
  CHECK(json.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  const nlohmann::json* dropped = findStat(doc.at("import_stats"), "recorder_dropped_events");
  REQUIRE(dropped != nullptr);
  CHECK(dropped->value("count", 0) == 13852);
  CHECK(dropped->value("severity", "") == "data-loss");
  const nlohmann::json* stopped = findStat(doc.at("import_stats"), "recorder_stopped_early");
  REQUIRE(stopped != nullptr);
  CHECK(stopped->value("count", 0) == 1);
  CHECK(stopped->value("reason", "") ==
        "the output file could not be written (No space left on device)");
}

TEST_CASE("check --select SL001 reports the dropped count and the early stop's reason",
          "[cli][recorder]") {
  const RunResult r =
      runSteplint({"check", "--select", "SL001", "--color", "never", kRecordedWithLoss});
  CHECK(r.exit_code == 1);  // SL001 is an error: findings fail the check
  CHECK(contains(r.out, "SL001"));
  CHECK(contains(r.out, "13852 host events dropped at the collector's buffer cap"));
  CHECK(contains(r.out,
                 "recording stopped before the program ended (the output file could not be written "
                 "(No space left on device))"));
  CHECK_FALSE(contains(r.out, "No findings"));

  const RunResult json =
      runSteplint({"check", "--select", "SL001", "--format", "json", kRecordedWithLoss});
  CHECK(contains(json.out, "\"recorder_dropped_events\""));
  CHECK(contains(json.out, "13852"));
}

}  // namespace
}  // namespace steplint::test
