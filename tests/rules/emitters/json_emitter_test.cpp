// --format json: schema steplint.check/1 (docs/check-json.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "emitter_fixture.h"

namespace steplint::test {
namespace {

TEST_CASE("json emitter: document fields", "[emitters][json]") {
  const EmitterFixture f;
  const nlohmann::json doc = nlohmann::json::parse(f.render("json"));
  CHECK(doc["schema"] == "steplint.check/1");
  CHECK(doc["tool"]["name"] == "steplint");
  CHECK(doc["tool"]["version"] == "0.1.0");
  CHECK(doc["fail_on"] == "warning");
  REQUIRE(doc["rules"].size() == 4);
  CHECK(doc["rules"][1] == nlohmann::json{{"code", "SL101"},
                                          {"name", "dataloader-wait"},
                                          {"category", "input-pipeline"},
                                          {"severity", "warning"}});
  CHECK(doc["totals"] ==
        nlohmann::json{
            {"findings", 3}, {"failing", 2}, {"not_checked", 1}, {"suppressed_by_baseline", 2}});
  REQUIRE(doc["traces"].size() == 2);
  CHECK(doc["traces"][1]["source"] == "b.json");
  CHECK(doc["traces"][1]["findings"].empty());
  CHECK(doc["traces"][1]["suppressed_by_baseline"] == 2);
}

TEST_CASE("json emitter: a finding carries every Diagnostic field", "[emitters][json]") {
  const EmitterFixture f;
  const nlohmann::json trace = nlohmann::json::parse(f.render("json"))["traces"][0];
  CHECK(trace["source"] == "run/a.pt.trace.json");
  REQUIRE(trace["findings"].size() == 3);
  const nlohmann::json& copy = trace["findings"][0];
  CHECK(copy["code"] == "SL201");
  CHECK(copy["name"] == "pageable-h2d-copy");
  CHECK(copy["severity"] == "error");
  CHECK(copy["message"] == "Pageable H2D copies: 18.4 MB per step");
  CHECK(copy["evidence"]["steps"] == nlohmann::json::array({3, 4}));
  CHECK(copy["evidence"]["metrics"]["bytes"] == 19267584.0);
  CHECK(copy["evidence"]["ranges"].empty());
  CHECK(copy["saving"]["per_step_ms"] == 12.04);
  CHECK(copy["saving"]["fraction_of_step"] == 0.068);
  CHECK(copy["saving"]["method"] == "copy time not overlapped");
  CHECK(copy["fingerprint"] == "SL201:aten::copy_");
  CHECK(copy["doc_url"] == analyzer::ruleDocUrl("SL201", "pageable-h2d-copy"));
  CHECK(copy["fix"].is_array());
  CHECK(trace["findings"][2]["message"] == kAwkwardMessage);
  CHECK(trace["findings"][2]["saving"].is_null());
  CHECK(trace["not_checked"] ==
        nlohmann::json::array(
            {{{"code", "SL001"}, {"name", "dropped-thing"}, {"reason", "no trace metadata"}}}));
}

TEST_CASE("json emitter: an unknown saving keeps the rule's reason", "[emitters][json]") {
  EmitterFixture f;
  analyzer::SavingEstimate& saving = f.report.traces[0].lint.diagnostics[2].saving;
  saving.method = "not estimated: the trace shows settings, not their cost";
  const nlohmann::json finding =
      nlohmann::json::parse(f.render("json"))["traces"][0]["findings"][2];
  CHECK(finding["saving"]["per_step_ms"].is_null());
  CHECK(finding["saving"]["fraction_of_step"].is_null());
  CHECK(finding["saving"]["method"] == "not estimated: the trace shows settings, not their cost");
}

TEST_CASE("json emitter: savings withheld say why instead of a total", "[emitters][json]") {
  EmitterFixture f;
  analyzer::SavingsTotal& total = f.report.traces[0].lint.saving_all;
  total = {};
  total.not_estimated = "not estimated: the replay of the kept steps, unchanged, gives 621.8 ms";
  const auto doc = nlohmann::json::parse(f.render("json"));
  const auto& all = doc["traces"][0]["saving_all"];
  CHECK(all["per_step_ms"].is_null());
  CHECK(all["fraction_of_step"].is_null());
  CHECK(all["not_estimated"] == total.not_estimated);
  total.not_estimated.clear();  // no time saving at all: still null
  CHECK(nlohmann::json::parse(f.render("json"))["traces"][0]["saving_all"].is_null());
}

TEST_CASE("json emitter: invalid UTF-8 in a message does not abort the report",
          "[emitters][json]") {
  EmitterFixture f;
  f.report.traces[0].lint.diagnostics[0].message = "kernel \xff\xfe name";
  const nlohmann::json doc = nlohmann::json::parse(f.render("json"));
  CHECK(doc["traces"][0]["findings"][0]["message"] == "kernel \xEF\xBF\xBD\xEF\xBF\xBD name");
}

TEST_CASE("json emitter: a whole-trace step is marked in saving_all", "[emitters][json]") {
  EmitterFixture f;
  analyzer::SavingsTotal& total = f.report.traces[0].lint.saving_all;
  total = {};
  total.per_step_ms = 16.7;
  CHECK_FALSE(nlohmann::json::parse(f.render("json"))["traces"][0]["saving_all"].contains(
      "whole_trace_step"));
  total.whole_trace_step = true;
  CHECK(nlohmann::json::parse(f.render("json"))["traces"][0]["saving_all"]["whole_trace_step"] ==
        true);
}

}  // namespace
}  // namespace steplint::test
