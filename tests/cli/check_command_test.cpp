// End-to-end `steplint check`: exit codes 0/1/2, config discovery, baselines, formats. The
// rule catalog changes, so assertions relate the exit code to the report's own counts.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "run_steplint.h"

namespace steplint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kTiny = testDataPath("cli/tiny_steps.json");

json parsed(const RunResult& r) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE_NOTHROW(json::parse(r.out));
  return json::parse(r.out);
}

std::string writeScratch(const std::string& name, const std::string& text) {
  const std::string path = scratchPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

bool endsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

TEST_CASE("check: exit 1 exactly when a finding is at or above fail-on", "[cli][check]") {
  for (const char* fail_on : {"note", "warning", "error"}) {
    const RunResult r = runSteplint({"check", "--no-config", "--select", "ALL", "--fail-on",
                                     fail_on, "--format", "json", kTiny});
    const json doc = parsed(r);
    CHECK(doc["fail_on"] == fail_on);
    CHECK(r.exit_code == (doc["totals"]["failing"].get<int>() > 0 ? 1 : 0));
  }
}

TEST_CASE("check: text output ends with the total line", "[cli][check]") {
  const RunResult r = runSteplint({"check", "--no-config", kTiny});
  CHECK((r.exit_code == 0 || r.exit_code == 1));
  const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  CHECK((last.rfind("Found ", 0) == 0 || last.rfind("No findings in 1 trace", 0) == 0));
}

TEST_CASE("check: --write-baseline accepts findings, --baseline hides them", "[cli][check]") {
  const std::string baseline = scratchPath("baseline.json");
  const RunResult first = runSteplint({"check", "--no-config", "--select", "ALL", "--format",
                                       "json", "--write-baseline", baseline, kTiny});
  CHECK(first.exit_code == 0);
  const int findings = parsed(first)["totals"]["findings"];
  const json written = json::parse(readFile(baseline));
  CHECK(written["schema"] == "steplint.baseline/2");

  const RunResult second = runSteplint({"check", "--no-config", "--select", "ALL", "--fail-on",
                                        "note", "--format", "json", "--baseline", baseline, kTiny});
  CHECK(second.exit_code == 0);
  const json doc = parsed(second);
  CHECK(doc["totals"]["findings"] == 0);
  CHECK(doc["totals"]["suppressed_by_baseline"] == findings);
  if (findings > 0) CHECK(second.err.find("suppressed by the baseline") != std::string::npos);
  // Fixing all findings still includes the hidden ones' shares, and says how many.
  const json first_doc = parsed(first);
  const json& all = first_doc["traces"][0]["saving_all"];
  REQUIRE(all.is_object());
  CHECK(doc["traces"][0]["saving_all"]["per_step_ms"] == all["per_step_ms"]);
  CHECK(doc["traces"][0]["saving_all"]["suppressed_by_baseline"] == all["findings"]);
  const RunResult text = runSteplint({"check", "--no-config", "--select", "ALL", "--fail-on",
                                      "note", "--baseline", baseline, kTiny});
  CHECK(text.out.find("fixing all findings, the " + std::to_string(all["findings"].get<int>()) +
                      " the baseline hides included: ~") != std::string::npos);
}

TEST_CASE("check: a bad config file is exit 2 with one line naming the key", "[cli][check]") {
  const std::string config = writeScratch("steplint.toml", "[lint]\nfail-on = 3\n");
  const RunResult r = runSteplint({"check", "--config", config, kTiny});
  CHECK(r.exit_code == 2);
  REQUIRE(r.errLines().size() == 1);
  CHECK(r.errLines()[0].rfind("steplint: error: ", 0) == 0);
  CHECK(
      endsWith(r.errLines()[0], "steplint.toml: lint.fail-on: expected a string, got an integer"));
  CHECK(r.out.empty());
}

TEST_CASE("check: an option of the wrong type names lint.options.CODE.NAME", "[cli][check]") {
  const json rules = parsed(runSteplint({"rules", "--format", "json"}));
  for (const json& rule : rules) {
    for (const json& option : rule["options"]) {
      if (!option["default"].is_number_float()) continue;
      const std::string code = rule["code"], name = option["name"];
      const std::string config =
          writeScratch("steplint.toml", "[lint.options." + code + "]\n" + name + " = \"x\"\n");
      const RunResult r = runSteplint({"check", "--config", config, kTiny});
      CHECK(r.exit_code == 2);
      REQUIRE(r.errLines().size() == 1);
      CHECK(endsWith(r.errLines()[0],
                     "lint.options." + code + "." + name + ": expected a number, got a string"));
      return;
    }
  }
  WARN("no registered rule has a number option; nothing to check");
}

TEST_CASE("check: config is found from the trace's directory, --no-config skips it",
          "[cli][check]") {
  const fs::path project = scratchPath("project");
  fs::create_directories(project / "runs");
  fs::copy_file(kTiny, project / "runs" / "trace.json");
  std::ofstream(project / "steplint.toml") << "[lint]\nselect = [\"no-such-rule\"]\n";
  const std::string trace = (project / "runs" / "trace.json").string();

  const RunResult found = runSteplint({"check", trace});
  CHECK(found.exit_code == 2);
  CHECK(found.err.find("lint.select: unknown rule selector 'no-such-rule'") != std::string::npos);

  const RunResult skipped = runSteplint({"check", "--no-config", trace});
  CHECK((skipped.exit_code == 0 || skipped.exit_code == 1));
}

TEST_CASE("check: usage and input errors are exit 2", "[cli][check]") {
  CHECK(
      runSteplint({"check", "--no-config", "--select", "no-such-rule", kTiny}).errLines() ==
      std::vector<std::string>{"steplint: error: --select: unknown rule selector 'no-such-rule'"});
  CHECK(runSteplint({"check", "--no-config", "--select", "no-such-rule", kTiny}).exit_code == 2);
  CHECK(runSteplint({"check", "--no-config", "missing.json"}).exit_code == 2);
  CHECK(runSteplint({"check", "--no-config", "missing.json"})
            .err.find("missing.json: no such file") != std::string::npos);
  CHECK(runSteplint({"check", "--format", "bogus", kTiny}).exit_code == 2);
  CHECK(runSteplint({"check", "--fail-on", "fatal", kTiny}).exit_code == 2);
  CHECK(runSteplint({"check", "--no-config", "--config", "x.toml", kTiny}).exit_code == 2);
  CHECK(runSteplint({"check", "--no-config", "--baseline", "missing-baseline.json", kTiny})
            .exit_code == 2);
  CHECK(runSteplint({"check"}).exit_code == 2);
}

TEST_CASE("check: every format renders, sarif to a file", "[cli][check]") {
  for (const char* format : {"text", "json", "sarif", "junit", "github", "markdown"}) {
    const RunResult r =
        runSteplint({"check", "--no-config", "--select", "ALL", "--format", format, kTiny});
    INFO(format << ": " << r.err);
    CHECK((r.exit_code == 0 || r.exit_code == 1));
  }
  const std::string sarif = scratchPath("report.sarif");
  const RunResult r = runSteplint(
      {"check", "--no-config", "--select", "ALL", "--format", "sarif", "-o", sarif, kTiny});
  CHECK((r.exit_code == 0 || r.exit_code == 1));
  CHECK(r.out.empty());
  const json log = json::parse(readFile(sarif));
  CHECK(log["version"] == "2.1.0");
  for (const json& result : log["runs"][0]["results"]) {
    const std::string uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    CHECK(endsWith(uri, "tiny_steps.json"));
  }
}

}  // namespace
}  // namespace steplint::test
