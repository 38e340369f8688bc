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
  CHECK(doc["schema"] == "steplint.baseline/2");
  REQUIRE(doc["fingerprints"].size() == 2);      // unique and sorted
  CHECK(doc["fingerprints"][0]["scope"] == "");  // written unscoped
  CHECK(doc["fingerprints"][0]["fingerprint"] == "SL101:dataloader");
  CHECK(doc["fingerprints"][0]["trace"] == "a.json");
  CHECK(doc["fingerprints"][1]["fingerprint"] == "SL201:aten::copy_");

  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(path, baseline) == "");
  CHECK(baseline.entries.size() == 2);
  CHECK(baseline.version == 2);

  analyzer::LintResult later;
  later.diagnostics = {finding("SL101", "dataloader", 42), finding("SL201", "aten::to", 1),
                       finding("SL201", "aten::copy_", 7)};
  later.diagnostics[0].saving.per_step_ms = 3.0;  // the DataLoader finding has a time saving
  later.saving_all.per_step_ms = 4.0;
  later.saving_all.findings = 2;
  CHECK(analyzer::applyBaseline(baseline, later).suppressed == 2);
  REQUIRE(later.diagnostics.size() == 1);
  CHECK(later.diagnostics[0].fingerprint() == "SL201:aten::to");
  // Fixing all findings still counts the hidden one's share: the total says so.
  CHECK(later.saving_all.suppressed == 1);
}

TEST_CASE("baseline: a finding keyed by GPU index is accepted on a renumbered GPU",
          "[engine][baseline]") {
  analyzer::LintResult accepted;
  accepted.source = "run.json";
  accepted.diagnostics = {finding("SL301", "gpu6", 1)};
  TempDir dir;
  const std::string path = dir.path("baseline.json");
  REQUIRE(analyzer::writeBaseline(path, {accepted}) == "");
  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(path, baseline) == "");

  analyzer::LintResult renumbered;
  renumbered.diagnostics = {finding("SL301", "gpu7", 1)};
  CHECK(analyzer::applyBaseline(baseline, renumbered).suppressed == 1);
  CHECK(renumbered.diagnostics.empty());

  // With two GPUs reported, the accepted one cannot be told apart: both are reported.
  analyzer::LintResult two;
  two.diagnostics = {finding("SL301", "gpu7", 1), finding("SL301", "gpu5", 1)};
  CHECK(analyzer::applyBaseline(baseline, two).suppressed == 0);
  CHECK(two.diagnostics.size() == 2);
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

TEST_CASE("baseline: another schema is refused, naming the ones supported (#12)",
          "[engine][baseline]") {
  TempDir dir;
  analyzer::Baseline baseline;
  const std::string supported =
      " (this steplint reads \"steplint.baseline/2\" and \"steplint.baseline/1\")";
  CHECK(
      analyzer::loadBaseline(
          dir.write("v3.json", R"({"schema": "steplint.baseline/3", "fingerprints": ["SL101:x"]})"),
          baseline) == "unsupported baseline schema \"steplint.baseline/3\"" + supported);
  CHECK(analyzer::loadBaseline(dir.write("n.json", R"({"schema": 1, "fingerprints": []})"),
                               baseline) == "unsupported baseline schema 1" + supported);
  CHECK_FALSE(baseline.contains("SL101:x"));
}

TEST_CASE("baseline: version 1 files are still read, unscoped and without sizes (#15)",
          "[engine][baseline]") {
  TempDir dir;
  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(
              dir.write("v1.json", R"({"schema": "steplint.baseline/1", "fingerprints": [
                {"fingerprint": "SL101:x", "scope": "rank=1", "magnitude": 1, "unit": "u"}]})"),
              baseline) == "");
  CHECK(baseline.version == 1);
  const analyzer::BaselineEntry* e = baseline.find("SL101:x", "rank=3:any.json");
  REQUIRE(e != nullptr);  // version 1 had no scope: whatever the file says, it matches every trace
  CHECK(e->scope.empty());
  CHECK(e->magnitude < 0);
}

analyzer::Diagnostic sized(const std::string& code, double syncs_per_step) {
  analyzer::Diagnostic d = finding(code, "sync", 1);
  d.evidence.metrics = {{"device", 0}, {"syncs_per_step", syncs_per_step}};
  return d;
}

TEST_CASE("baseline: entries are scoped to the trace they came from (#15)", "[engine][baseline]") {
  trace::TraceMetadata rank0, rank3, single;
  rank0.distributed.present = rank3.distributed.present = true;
  rank0.distributed.rank = 0;
  rank3.distributed.rank = 3;
  using analyzer::BaselineScope;
  // Timestamps and pids (4+ digits) change per recording; "worker0" and the rank do not.
  CHECK(analyzer::traceScope("run/worker0.1623143089861.pt.trace.json.gz", single,
                             BaselineScope::kFile) == "worker0.*.pt.trace.json.gz");
  CHECK(analyzer::traceScope("/tmp/host_48211.1700000000000.pt.trace.json", rank3,
                             BaselineScope::kFile) == "rank=3:host_*.*.pt.trace.json");
  CHECK(analyzer::traceScope("a.json", rank3, BaselineScope::kRank) == "rank=3");
  CHECK(analyzer::traceScope("a.json", single, BaselineScope::kRank) == "");
  CHECK(analyzer::traceScope("a.json", rank3, BaselineScope::kNone) == "");

  TempDir dir;
  const std::string path = dir.path("b.json");
  analyzer::LintResult from_rank0;
  from_rank0.source = "worker0.1.json";
  from_rank0.diagnostics = {sized("SL206", 6)};
  REQUIRE(analyzer::writeBaseline(
              path, {{&from_rank0, analyzer::traceScope("x.json", rank0, BaselineScope::kRank)}}) ==
          "");
  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(path, baseline) == "");

  analyzer::LintResult on_rank0, on_rank3, unscoped;
  on_rank0.diagnostics = on_rank3.diagnostics = unscoped.diagnostics = {sized("SL206", 7)};
  CHECK(analyzer::applyBaseline(baseline, on_rank0, "rank=0").suppressed == 1);
  CHECK(analyzer::applyBaseline(baseline, on_rank3, "rank=3").suppressed ==
        0);  // another trace's finding
  CHECK(on_rank3.diagnostics.size() == 1);
  CHECK(analyzer::applyBaseline(baseline, unscoped, "").suppressed == 1);  // --baseline-scope none
}

TEST_CASE("baseline: an accepted finding that grew beyond the band is reported again (#15)",
          "[engine][baseline]") {
  TempDir dir;
  const std::string path = dir.path("b.json");
  analyzer::LintResult accepted;
  accepted.diagnostics = {sized("SL206", 6), finding("SL101", "dataloader", 1)};
  REQUIRE(analyzer::writeBaseline(path, std::vector<analyzer::LintResult>{accepted}) == "");
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(path));
  CHECK(doc["fingerprints"][1]["magnitude"] == 6);
  CHECK(doc["fingerprints"][1]["unit"] == "syncs_per_step");
  CHECK_FALSE(doc["fingerprints"][0].contains("magnitude"));  // SL101 here has no size
  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(path, baseline) == "");

  analyzer::LintResult later;
  later.diagnostics = {sized("SL206", 60), finding("SL101", "dataloader", 1)};
  const analyzer::BaselineOutcome outcome = analyzer::applyBaseline(baseline, later, "", 2.0);
  CHECK(outcome.suppressed == 1);
  CHECK(outcome.worse == 1);
  REQUIRE(later.diagnostics.size() == 1);
  CHECK(later.diagnostics[0].code == "SL206");
  CHECK(later.diagnostics[0].message ==
        "message of SL206; worse than baseline: 6.00 -> 60.00 syncs_per_step (band 2.00x)");
  CHECK(later.diagnostics[0].evidence.metric("baseline_magnitude") == 6);

  // Inside the band (6 -> 12 is exactly 2x, not beyond): still accepted.
  later.diagnostics = {sized("SL206", 12)};
  CHECK(analyzer::applyBaseline(baseline, later, "", 2.0).suppressed == 1);
  // A tighter band reports it.
  later.diagnostics = {sized("SL206", 12)};
  CHECK(analyzer::applyBaseline(baseline, later, "", 1.5).worse == 1);
}

TEST_CASE("baseline: traces sharing a scope are all accepted by the file written from them",
          "[engine][baseline]") {
  // Two recordings of rank 0 with scope "rank" (or any traces with scope "none") share one entry
  // per fingerprint. The config fuzzer found it keeping the first trace's 0.12 ms while the
  // second had 9 ms, so checking the same traces against the new file reported it as worse.
  TempDir dir;
  const std::string path = dir.path("b.json");
  analyzer::LintResult small, big;
  small.source = "first.json";
  small.diagnostics = {sized("SL206", 0.12)};
  big.source = "second.json";
  big.diagnostics = {sized("SL206", 9)};
  REQUIRE(analyzer::writeBaseline(path, {{&small, "rank=0"}, {&big, "rank=0"}}) == "");
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(path));
  REQUIRE(doc["fingerprints"].size() == 1);
  CHECK(doc["fingerprints"][0]["magnitude"] == 9);
  CHECK(doc["fingerprints"][0]["trace"] == "second.json");  // the message and trace of that one

  analyzer::Baseline baseline;
  REQUIRE(analyzer::loadBaseline(path, baseline) == "");
  for (analyzer::LintResult again : {small, big}) {
    const analyzer::BaselineOutcome outcome = analyzer::applyBaseline(baseline, again, "rank=0", 2);
    CHECK(outcome.suppressed == 1);
    CHECK(outcome.worse == 0);
  }
}

TEST_CASE("baseline: writing goes through the safe output layer (#12)", "[engine][baseline]") {
  TempDir dir;
  CHECK(analyzer::writeBaseline(dir.path(), twoTraces()) == "is a directory");
  CHECK(analyzer::writeBaseline(dir.path("no/such/dir/b.json"), twoTraces()) ==
        "cannot open for writing (No such file or directory)");
}

}  // namespace
}  // namespace steplint::test
