// --format github: workflow commands with the runner's escaping.
#include <catch2/catch.hpp>

#include "emitter_fixture.h"

namespace steplint::test {
namespace {

TEST_CASE("github emitter: one annotation per finding", "[emitters][github]") {
  const EmitterFixture f;
  CHECK(
      lines(f.render("github")) ==
      std::vector<std::string>{
          "::error file=run/a.pt.trace.json,title=SL201 pageable-h2d-copy::step 3: Pageable H2D "
          "copies: "
          "18.4 MB per step (est. saving 12.0 ms/step, 7%25)",
          "::warning file=run/a.pt.trace.json,title=SL101 dataloader-wait::step 5: DataLoader wait "
          "is 33%25 "
          "of step time (est. saving 58.3 ms/step, 33%25)",
          "::notice file=run/a.pt.trace.json,title=SL102 single-process-dataloader::Pipe | <tag> & "
          "\"quotes\" 100%25 a,b: c%0Asecond line"});
}

TEST_CASE("github emitter: properties escape ':' and ','", "[emitters][github]") {
  EmitterFixture f;
  f.report.traces[0].lint.source = "runs,x/a:b%.json";
  f.report.traces[0].lint.diagnostics.resize(1);
  CHECK(lines(f.render("github"))[0].rfind(
            "::error file=runs%2Cx/a%3Ab%25.json,title=SL201 pageable-h2d-copy::", 0) == 0);
}

TEST_CASE("github emitter: carriage returns are escaped", "[emitters][github]") {
  EmitterFixture f;
  f.report.traces[0].lint.diagnostics.resize(1);
  f.report.traces[0].lint.diagnostics[0].message = "a\r\nb";
  f.report.traces[0].lint.diagnostics[0].saving = {};
  CHECK(f.render("github") ==
        "::error file=run/a.pt.trace.json,title=SL201 pageable-h2d-copy::step 3: a%0D%0Ab\n");
}

}  // namespace
}  // namespace steplint::test
