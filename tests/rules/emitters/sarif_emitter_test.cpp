// --format sarif: structural validation against what SARIF 2.1.0 and GitHub code scanning need.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "emitter_fixture.h"

namespace steplint::test {
namespace {

using nlohmann::json;

bool isLevel(const json& level) {
  return level == "note" || level == "warning" || level == "error";
}

/// The checks any steplint SARIF log must pass; returns the run for further checks.
json validateSarif(const std::string& text) {
  const json doc = json::parse(text);
  CHECK(doc["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  CHECK(doc["version"] == "2.1.0");
  REQUIRE(doc["runs"].size() == 1);
  const json& run = doc["runs"][0];
  const json& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "steplint");
  CHECK(driver["informationUri"] == std::string(analyzer::kProjectUrl));
  CHECK(driver["version"].is_string());
  std::set<std::string> ids;
  for (const json& rule : driver["rules"]) {
    CHECK(ids.insert(rule["id"].get<std::string>()).second);
    for (const char* key : {"id", "name", "helpUri"}) CHECK(rule[key].is_string());
    CHECK(rule["shortDescription"]["text"].is_string());
    CHECK(rule["fullDescription"]["text"].is_string());
    CHECK(isLevel(rule["defaultConfiguration"]["level"]));
  }
  for (const json& result : run["results"]) {
    const size_t index = result["ruleIndex"].get<size_t>();
    REQUIRE(index < driver["rules"].size());
    CHECK(driver["rules"][index]["id"] == result["ruleId"]);
    CHECK(isLevel(result["level"]));
    CHECK_FALSE(result["message"]["text"].get<std::string>().empty());
    REQUIRE(result["locations"].size() == 1);
    CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string());
    CHECK(result["partialFingerprints"]["steplintFingerprint/v1"].is_string());
  }
  return run;
}

TEST_CASE("sarif emitter: valid log with rules and results", "[emitters][sarif]") {
  EmitterFixture f;
  f.report.rule_descriptions["SL101"] = "Flags steps that wait for the next batch.";
  const json run = validateSarif(f.render("sarif"));
  const json& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == 4);  // the selected rules
  CHECK(rules[1]["id"] == "SL101");
  CHECK(rules[1]["name"] == "dataloader-wait");
  CHECK(rules[1]["shortDescription"]["text"] == "Steps wait for the DataLoader");
  CHECK(rules[1]["fullDescription"]["text"] == "Flags steps that wait for the next batch.");
  CHECK(rules[0]["fullDescription"]["text"] == "Trace lost data");  // falls back to the summary
  CHECK(rules[1]["helpUri"] == analyzer::ruleDocUrl("SL101", "dataloader-wait"));
  CHECK(rules[3]["defaultConfiguration"]["level"] == "error");

  REQUIRE(run["results"].size() == 3);
  const json& copy = run["results"][0];
  CHECK(copy["ruleId"] == "SL201");
  CHECK(copy["level"] == "error");
  CHECK(copy["message"]["text"] ==
        "Pageable H2D copies: 18.4 MB per step (est. saving 12.0 ms/step, 7%)");
  CHECK(copy["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "run/a.pt.trace.json");
  CHECK(copy["partialFingerprints"]["steplintFingerprint/v1"] == "SL201:aten::copy_");
  CHECK(copy["properties"]["steps"] == json::array({3, 4}));
  CHECK(copy["properties"]["estimatedSavingMs"] == 12.04);
  CHECK(copy["properties"]["metrics"]["bytes"] == 19267584.0);
  CHECK(run["results"][2]["level"] == "note");

  const json& notes = run["invocations"][0]["toolExecutionNotifications"];
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["associatedRule"]["id"] == "SL001");
  CHECK(notes[0]["associatedRule"]["index"] == 0);
}

TEST_CASE("sarif emitter: a finding from an unselected rule still resolves", "[emitters][sarif]") {
  EmitterFixture f;
  f.report.selected.clear();
  const json run = validateSarif(f.render("sarif"));
  CHECK(run["tool"]["driver"]["rules"].size() ==
        4);  // SL201, SL101, SL102 from results, SL001 from not_checked
}

TEST_CASE("sarif emitter: artifact URIs are relative and percent-encoded", "[emitters][sarif]") {
  EmitterFixture f;
  f.report.traces[0].lint.source = "/ci/work/my runs/a#1.json";
  analyzer::EmitOptions options;
  options.base_dir = "/ci/work";
  const json run = validateSarif(f.render("sarif", options));
  CHECK(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "my%20runs/a%231.json");
  options.base_dir = "/elsewhere";
  const json outside = validateSarif(f.render("sarif", options));
  CHECK(outside["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file:///ci/work/my%20runs/a%231.json");
  // The same file spelled from a subdirectory: one URI, not "../" resolved in the checkout.
  f.report.traces[0].lint.source = "../my runs/a#1.json";
  options.base_dir = "/ci/work/sub";
  const json dotdot = validateSarif(f.render("sarif", options));
  CHECK(dotdot["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file:///ci/work/my%20runs/a%231.json");
}

}  // namespace
}  // namespace steplint::test
