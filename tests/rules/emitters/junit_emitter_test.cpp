// --format junit: well-formed XML whose counts match its elements.
#include <catch2/catch.hpp>
#include <regex>

#include "emitter_fixture.h"

namespace steplint::test {
namespace {

size_t countOf(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

/// Minimal well-formedness: tags balance, attribute values are quoted, no raw '<' or '&'
/// outside markup and entities. Returns "" or the first problem.
std::string checkWellFormed(const std::string& xml) {
  std::vector<std::string> open;
  static const std::regex tag(R"(<(/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(/?)>)");
  static const std::regex entity(R"(&(amp|lt|gt|quot|apos|#[0-9]+);)");
  size_t at = xml.rfind("?>", 100) + 2;  // after the XML declaration
  while (at < xml.size()) {
    const size_t lt = xml.find('<', at);
    const std::string text = xml.substr(at, lt == std::string::npos ? std::string::npos : lt - at);
    if (std::regex_replace(text, entity, "").find('&') != std::string::npos)
      return "raw & in: " + text;
    if (text.find('>') != std::string::npos) return "raw > in: " + text;
    if (lt == std::string::npos) break;
    std::smatch m;
    const std::string rest = xml.substr(lt);
    if (!std::regex_search(rest, m, tag, std::regex_constants::match_continuous))
      return "bad tag at " + rest.substr(0, 40);
    if (m[1].length() > 0) {
      if (open.empty() || open.back() != m[2]) return "unbalanced </" + m[2].str() + ">";
      open.pop_back();
    } else if (m[4].length() == 0) {
      open.push_back(m[2]);
    }
    at = lt + m[0].length();
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

std::string attribute(const std::string& xml, const std::string& element, const std::string& name) {
  std::smatch m;
  const std::regex re("<" + element + R"(\s(?:[^>]*\s)?)" + name + R"re(="([^"]*)")re");
  return std::regex_search(xml, m, re) ? m[1].str() : "";
}

TEST_CASE("junit emitter: structure and counts", "[emitters][junit]") {
  const EmitterFixture f;
  const std::string xml = f.render("junit");
  CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0) == 0);
  CHECK(checkWellFormed(xml) == "");
  CHECK(countOf(xml, "<testsuite ") == 2);
  CHECK(countOf(xml, "<testcase ") == 8);  // 4 selected rules x 2 traces
  CHECK(countOf(xml, "<failure ") == 3);
  CHECK(countOf(xml, "<skipped ") == 1);
  CHECK(attribute(xml, "testsuites", "tests") == "8");
  CHECK(attribute(xml, "testsuites", "failures") == "3");
  CHECK(attribute(xml, "testsuites", "skipped") == "1");
  CHECK(attribute(xml, "testsuite", "name") == "run/a.pt.trace.json");
  CHECK(attribute(xml, "testsuite", "tests") == "4");
  CHECK(
      xml.find("<testcase classname=\"steplint.input-pipeline\" name=\"SL101 dataloader-wait\">") !=
      std::string::npos);
  CHECK(xml.find("<skipped message=\"not checked: no trace metadata\"/>") != std::string::npos);
  CHECK(
      xml.find(
          "[error] step 3: Pageable H2D copies: 18.4 MB per step (est. saving 12.0 ms/step, 7%)") !=
      std::string::npos);
}

TEST_CASE("junit emitter: text is escaped", "[emitters][junit]") {
  EmitterFixture f;
  f.report.traces[0].lint.diagnostics[2].message += " \x01 end";
  const std::string xml = f.render("junit");
  CHECK(checkWellFormed(xml) == "");
  CHECK(xml.find("Pipe | &lt;tag&gt; &amp; &quot;quotes&quot; 100%") != std::string::npos);
  CHECK(xml.find("<tag>") == std::string::npos);
  CHECK(xml.find('\x01') == std::string::npos);
  CHECK(xml.find("\xEF\xBF\xBD end") != std::string::npos);
}

}  // namespace
}  // namespace steplint::test
