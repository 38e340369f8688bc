// The emitter registry and behaviour every format shares.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "emitter_fixture.h"
#include "steplint/analyzer/lint_config.h"

namespace steplint::test {
namespace {

TEST_CASE("emitters: the built-in formats, unique names", "[emitters]") {
  analyzer::EmitterRegistry registry;
  analyzer::registerBuiltinEmitters(registry);
  CHECK(registry.names() ==
        std::vector<std::string>{"text", "json", "sarif", "junit", "github", "markdown"});
  for (const auto& e : registry.emitters()) CHECK_FALSE(e->description().empty());
  CHECK(registry.find("nope") == nullptr);
}

TEST_CASE("emitters: an empty report renders in every format", "[emitters]") {
  analyzer::EmitterRegistry registry;
  analyzer::registerBuiltinEmitters(registry);
  const analyzer::LintReport empty;
  for (const auto& e : registry.emitters()) {
    INFO(e->name());
    std::ostringstream out;
    e->emit(empty, {}, out);
    if (e->name() == "json" || e->name() == "sarif")
      CHECK_NOTHROW(nlohmann::json::parse(out.str()));
  }
}

TEST_CASE("emitters: report counts and the doc URL", "[emitters]") {
  EmitterFixture f;
  CHECK(f.report.findingCount() == 3);
  CHECK(f.report.failingCount() == 2);  // fail-on warning: the note does not fail
  f.report.fail_on = analyzer::Severity::kNote;
  CHECK(f.report.failingCount() == 3);
  CHECK(f.report.suppressedCount() == 2);
  CHECK(f.report.notCheckedCount() == 1);
  CHECK(analyzer::ruleDocUrl("SL101", "dataloader-wait") ==
        std::string(analyzer::kRuleDocsBaseUrl) + "SL101-dataloader-wait.md");
}

}  // namespace
}  // namespace steplint::test
