// --format markdown: a job summary with findings, step-time breakdown and "not checked".
#include <catch2/catch.hpp>

#include "emitter_fixture.h"

namespace steplint::test {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("markdown emitter: header and findings table", "[emitters][markdown]") {
  const EmitterFixture f;
  const std::string md = f.render("markdown");
  const std::string header =
      "## steplint\n\n**3 findings** (1 error, 1 warning, 1 note) in 2 traces · 4 rules selected · "
      "fail-on: warning · 2 suppressed by the baseline\n";
  CHECK(md.rfind(header, 0) == 0);
  CHECK(contains(
      md, "### `run/a.pt.trace.json`\n\n| Code | Severity | Step | Message | Est. saving |\n"));
  CHECK(contains(md,
                 "| [SL201](" + analyzer::ruleDocUrl("SL201", "pageable-h2d-copy") +
                     ") `pageable-h2d-copy` | error | 3 | Pageable H2D copies: 18.4 MB per step | "
                     "12.0 ms/step, 7% |\n"));
  // Cells never break the table or inject HTML.
  CHECK(contains(md, "| Pipe \\| &lt;tag&gt; &amp; \"quotes\" 100% a,b: c second line | – |\n"));
  CHECK(contains(md, "**Not checked**\n\n- SL001 `dropped-thing`: no trace metadata\n"));
}

TEST_CASE("markdown emitter: the total names the findings it leaves out", "[emitters][markdown]") {
  EmitterFixture f;
  analyzer::SavingsTotal& all = f.report.traces[0].lint.saving_all;
  all.per_step_ms = 70.34;
  all.fraction_of_step = 0.402;
  all.step_ms = 175.0;
  CHECK(contains(f.render("markdown"),
                 "**Fixing all findings: ~70.3 ms/step (40% of the 175.0 ms "
                 "step; SL102 not estimated, not included)**\n"));
}

TEST_CASE("markdown emitter: step-time breakdown from the summary", "[emitters][markdown]") {
  const EmitterFixture f;
  const std::string md = f.render("markdown");
  CHECK(contains(md,
                 "No training steps found, so no step-time breakdown."));  // trace a has no summary
  CHECK(
      contains(md,
               "### `b.json`\n\nNo findings.\n\n**Step-time breakdown** (average over 2 steps)\n\n"
               "| Category | Avg ms | % |\n|---|---:|---:|\n| Kernel | 6.000 | 60.00% |\n"));
  CHECK(contains(md, "| DataLoader | 4.000 | 40.00% |\n"));
  CHECK(contains(md, "| **Total** | **10.000** | 100.00% |\n"));
  CHECK(contains(md, "_2 suppressed by the baseline._"));
}

}  // namespace
}  // namespace steplint::test
