// --format text: exactly what a user sees.
#include <catch2/catch.hpp>

#include "emitter_fixture.h"

namespace steplint::test {
namespace {

TEST_CASE("text emitter: golden output", "[emitters][text]") {
  const EmitterFixture f;
  CHECK(f.render("text") ==
        "run/a.pt.trace.json:step 3: SL201 [error] Pageable H2D copies: 18.4 MB per step "
        "(est. saving 12.0 ms/step, 7%)\n"
        "run/a.pt.trace.json:step 5: SL101 [warning] DataLoader wait is 33% of step time "
        "(est. saving 58.3 ms/step, 33%)\n"
        "run/a.pt.trace.json: SL102 [note] Pipe | <tag> & \"quotes\" 100% a,b: c second line\n"
        "Not checked in run/a.pt.trace.json:\n"
        "  SL001 dropped-thing: no trace metadata\n"
        "Found 3 findings (1 error, 1 warning, 1 note) in 2 traces (4 rules selected, 1 not "
        "checked on some trace); "
        "2 suppressed by the baseline.\n");
}

TEST_CASE("text emitter: traces that could not check the same rules list them once",
          "[emitters][text]") {
  EmitterFixture f;
  const analyzer::TraceReport first = f.firstTrace();
  f.report.traces.clear();
  for (int rank = 0; rank < 5; ++rank) {
    analyzer::TraceReport t = first;
    t.lint.diagnostics.clear();
    t.lint.source = "job/t.rank" + std::to_string(rank) + ".pt.trace.json";
    if (rank == 3) t.lint.not_checked[0].reason = "no GPU activity";  // the odd one out
    f.report.traces.push_back(t);
  }
  const std::string text = f.render("text");
  CHECK(text ==
        "Not checked in 4 traces (job/t.rank0.pt.trace.json, job/t.rank1.pt.trace.json, "
        "job/t.rank2.pt.trace.json and 1 more):\n"
        "  SL001 dropped-thing: no trace metadata\n"
        "Not checked in job/t.rank3.pt.trace.json:\n"
        "  SL001 dropped-thing: no GPU activity\n"
        "No findings in 5 traces (4 rules selected, 1 not checked on some trace).\n");
}

TEST_CASE("text emitter: a tiny saving is <1%, not 0%", "[emitters][text]") {
  EmitterFixture f;
  f.report.traces[0].lint.diagnostics[0].saving.fraction_of_step = 0.002;
  CHECK(lines(f.render("text"))[0].find("(est. saving 12.0 ms/step, <1%)") != std::string::npos);
}

TEST_CASE("text emitter: a saving range gives both ends, once when they print alike",
          "[emitters][text]") {
  EmitterFixture f;
  analyzer::SavingEstimate& saving = f.report.traces[0].lint.diagnostics[0].saving;
  saving.low_ms = 9.0;
  CHECK(lines(f.render("text"))[0].find("(est. saving 9.0-12.0 ms/step, 7%)") != std::string::npos);
  saving.low_ms = 11.98;  // rounds to 12.0 like the high end: "12.0-12.0" would say nothing
  CHECK(lines(f.render("text"))[0].find("(est. saving 12.0 ms/step, 7%)") != std::string::npos);
}

TEST_CASE("text emitter: savings withheld say why", "[emitters][text]") {
  EmitterFixture f;
  f.report.traces[0].lint.saving_all = {};
  f.report.traces[0].lint.saving_all.not_estimated = "not estimated: the replay strays";
  CHECK(f.render("text").find(": savings not estimated: the replay strays\n") != std::string::npos);
}

TEST_CASE("text emitter: the total names the findings it leaves out", "[emitters][text]") {
  // h6 D4: "fixing all findings: ~3.3 ms/step" read as every finding listed, SL102 included.
  EmitterFixture f;
  analyzer::SavingsTotal& all = f.report.traces[0].lint.saving_all;
  all.per_step_ms = 70.34;
  all.fraction_of_step = 0.402;
  all.step_ms = 175.0;
  all.findings = 2;
  CHECK(f.render("text").find("run/a.pt.trace.json: fixing all findings: ~70.3 ms/step (40% of "
                              "the 175.0 ms step; SL102 not estimated, not included)\n") !=
        std::string::npos);
  all.fraction_of_step = -1;  // no step to divide by: the parentheses hold the rest alone
  CHECK(f.render("text").find("fixing all findings: ~70.3 ms/step (SL102 not estimated, not "
                              "included)\n") != std::string::npos);
}

TEST_CASE("text emitter: no findings", "[emitters][text]") {
  EmitterFixture f;
  f.report.traces = {EmitterFixture::secondTrace()};
  f.report.traces[0].suppressed = 0;
  CHECK(f.render("text") == "No findings in 1 trace (4 rules selected).\n");
}

TEST_CASE("text emitter: colour only when asked", "[emitters][text]") {
  const EmitterFixture f;
  CHECK(f.render("text").find('\x1b') == std::string::npos);
  analyzer::EmitOptions options;
  options.color = true;
  const std::vector<std::string> colored = lines(f.render("text", options));
  CHECK(colored[0].find("\x1b[1;31m[error]\x1b[0m") != std::string::npos);
  CHECK(colored[1].find("\x1b[33m[warning]\x1b[0m") != std::string::npos);
}

TEST_CASE("text emitter: absolute paths below base_dir become relative", "[emitters][text]") {
  EmitterFixture f;
  f.report.traces[0].lint.source = "/ci/work/run/a.json";
  analyzer::EmitOptions options;
  options.base_dir = "/ci/work";
  CHECK(lines(f.render("text", options))[0].rfind("run/a.json:step 3: SL201", 0) == 0);
  options.base_dir = "/elsewhere";
  CHECK(lines(f.render("text", options))[0].rfind("/ci/work/run/a.json:step 3:", 0) == 0);
}

TEST_CASE("text emitter: a whole-trace step says its ms/step is for the whole trace (h6 D10)",
          "[emitters][text]") {
  EmitterFixture f;
  analyzer::SavingsTotal& total = f.report.traces[0].lint.saving_all;
  total = {};
  total.per_step_ms = 16.7;
  total.fraction_of_step = 0.42;
  total.step_ms = 39.9;
  const std::string line =
      "run/a.pt.trace.json: fixing all findings: ~16.7 ms/step (42% of the "
      "39.9 ms step; SL102 not estimated, not included)";  // the fixture's SL102 has no saving
  CHECK(lines(f.render("text"))[3] == line);
  total.whole_trace_step = true;
  CHECK(lines(f.render("text"))[3] ==
        line +
            "; no iterations were found, so the step is the whole trace and each ms/step is "
            "for all of it");
}

}  // namespace
}  // namespace steplint::test
