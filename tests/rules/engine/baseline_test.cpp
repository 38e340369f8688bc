// Baseline files: write, read back, suppress (baseline.h).
#include "steplint/analyzer/baseline.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "temp_dir.h"

namespace steplint::test {
namespace {

analyzer::Diagnostic finding(const std::string& code, const std::string& key, int64_t step) {
  analyzer::Diagnostic d;
  d.code = code;
  d.name = "rule-" + code;
  d.message = "message of " + code;
  d.fingerprint_key = key;
  d.evidence.steps = {step};
  return d;
}

std::vector<analyzer::LintResult> twoTraces() {
  analyzer::LintResult a;
  a.source = "a.json";
  a.diagnostics = {finding("SL201", "aten::copy_", 3), finding("SL101", "dataloader", 5)};
  analyzer::LintResult b;
  b.source = "b.json";
  b.diagnostics = {finding("SL101", "dataloader", 9)};  // same fingerprint, other trace and step
  return {a, b};
}

TEST_CASE("baseline: round trip suppresses exactly the accepted findings", "[engine][baseline]") {
  TempDir dir;
  const std::string path = dir.path("baseline.json");
  REQUIRE(analyzer::writeBaseline(path, twoTraces()) == "");

  std::ifstream in(path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  CHECK(doc["schema"] == "steplint.baseline/1");
  REQUIRE(doc["fingerprints"].size() == 2);  // unique and sorted
  CHECK(doc["fingerprints"][0]["fingerprint"] == "SL101:dataloader");
  CHECK(doc["fingerprints"][0]["trace"] == "a.json");
  CHECK(doc["fingerprints"][1]["fingerprint"] == "SL201:aten::copy_");

  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(path, baseline) == "");
  CHECK(baseline.fingerprints.size() == 2);

  analyzer::LintResult later;
  later.diagnostics = {finding("SL101", "dataloader", 42), finding("SL201", "aten::to", 1),
                       finding("SL201", "aten::copy_", 7)};
  CHECK(analyzer::applyBaseline(baseline, later) == 2);
  REQUIRE(later.diagnostics.size() == 1);
  CHECK(later.diagnostics[0].fingerprint() == "SL201:aten::to");
}

TEST_CASE("baseline: plain string entries are accepted", "[engine][baseline]") {
  TempDir dir;
  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(dir.write("b.json", R"({"fingerprints": ["SL101:x"]})"),
                                 baseline) == "");
  CHECK(baseline.contains("SL101:x"));
}

TEST_CASE("baseline: unreadable or malformed files are errors", "[engine][baseline]") {
  TempDir dir;
  analyzer::Baseline baseline;
  CHECK(analyzer::loadBaseline(dir.path("missing.json"), baseline) == "no such file");
  CHECK(analyzer::loadBaseline(dir.write("a.json", "not json"), baseline) == "not a JSON file");
  CHECK(analyzer::loadBaseline(dir.write("b.json", "[]"), baseline)
            .rfind("not a steplint baseline", 0) == 0);
  CHECK(analyzer::loadBaseline(dir.write("c.json", R"({"fingerprints": [1]})"), baseline) ==
        "fingerprints[0]: expected a string or an object with a \"fingerprint\" string");
}

TEST_CASE("baseline: another schema is refused, naming the one supported (#12)", "[engine][baseline]") {
  TempDir dir;
  analyzer::Baseline baseline;
  CHECK(analyzer::loadBaseline(dir.write("v2.json", R"({"schema": "steplint.baseline/2", "fingerprints": ["SL101:x"]})"),
                               baseline) ==
        "unsupported baseline schema \"steplint.baseline/2\" (this steplint reads \"steplint.baseline/1\")");
  CHECK(analyzer::loadBaseline(dir.write("n.json", R"({"schema": 1, "fingerprints": []})"), baseline) ==
        "unsupported baseline schema 1 (this steplint reads \"steplint.baseline/1\")");
  CHECK_FALSE(baseline.contains("SL101:x"));
  CHECK(analyzer::loadBaseline(dir.write("v1.json", R"({"schema": "steplint.baseline/1", "fingerprints": ["SL101:x"]})"),
                               baseline) == "");
  CHECK(baseline.contains("SL101:x"));
}

TEST_CASE("baseline: writing goes through the safe output layer (#12)", "[engine][baseline]") {
  TempDir dir;
  CHECK(analyzer::writeBaseline(dir.path(), twoTraces()) == "is a directory");
  CHECK(analyzer::writeBaseline(dir.path("no/such/dir/b.json"), twoTraces()) ==
        "cannot open for writing (No such file or directory)");
}

}  // namespace
}  // namespace steplint::test
