// The run's warnings (events lost on import, ranks missing, a recording cut short) reach every
// machine-read format: a CI job that reads only the report must not take a partial result for
// a whole one. Text leaves them to stderr, where `steplint: warning:` printed them.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "emitter_fixture.h"

namespace steplint::test {
namespace {

constexpr const char* kLost =
    "run/a.pt.trace.json: 1 x json_truncated [data-loss]: File ended inside traceEvents";
constexpr const char* kMissing = "job: ranks 2 and 3 of 4 are missing; the job's figures are partial";

EmitterFixture warnedReport() {
  EmitterFixture f;
  f.report.warnings = {kLost, kMissing};
  return f;
}

}  // namespace

TEST_CASE("report warnings: JSON lists them in order, and an empty list when none",
          "[emitters][json]") {
  const nlohmann::json doc = nlohmann::json::parse(warnedReport().render("json"));
  CHECK(doc.at("warnings") == nlohmann::json::array({kLost, kMissing}));
  CHECK(nlohmann::json::parse(EmitterFixture().render("json")).at("warnings").empty());
}

TEST_CASE("report warnings: SARIF notifications of level warning", "[emitters][sarif]") {
  const nlohmann::json doc = nlohmann::json::parse(warnedReport().render("sarif"));
  std::vector<std::string> texts;
  for (const nlohmann::json& n : doc["runs"][0]["invocations"][0]["toolExecutionNotifications"])
    if (n.at("level") == "warning") texts.push_back(n["message"]["text"]);
  CHECK(texts == std::vector<std::string>{kLost, kMissing});
}

TEST_CASE("report warnings: GitHub warning commands without a file", "[emitters][github]") {
  const std::string out = warnedReport().render("github");
  CHECK(out.find(std::string("::warning title=steplint::") + kLost + "\n") != std::string::npos);
  CHECK(out.find(std::string("::warning title=steplint::") + kMissing + "\n") !=
        std::string::npos);
}

TEST_CASE("report warnings: JUnit's first suite carries them in system-err",
          "[emitters][junit]") {
  const std::string xml = warnedReport().render("junit");
  const size_t err = xml.find("<system-err>warning: " + std::string(kLost) + "&#10;warning: ");
  REQUIRE(err != std::string::npos);
  CHECK(err < xml.find("</testsuite>"));  // inside the first suite, after its test cases
  CHECK(err > xml.rfind("</testcase>", xml.find("</testsuite>")));
  CHECK(EmitterFixture().render("junit").find("system-err") == std::string::npos);
}

TEST_CASE("report warnings: Markdown lists them last, text leaves them to stderr",
          "[emitters][markdown][text]") {
  const std::string md = warnedReport().render("markdown");
  const size_t heading = md.find("**Warnings**\n\n- ");
  REQUIRE(heading != std::string::npos);
  CHECK(md.find(std::string("- ") + kMissing + "\n") > heading);
  CHECK(warnedReport().render("text") == EmitterFixture().render("text"));
}

}  // namespace steplint::test
