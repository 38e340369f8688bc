// Every format stays what it claims to be whatever text a trace carries: names and file names
// with line breaks, terminal escape sequences, invalid UTF-8 and characters XML forbids.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "emitter_fixture.h"
#include "steplint/trace/utf8.h"

namespace steplint::test {
namespace {

// A GPU name as a trace could carry it: a forged GitHub command on its own line, an OSC title
// and a screen clear, a C1 CSI (U+009B), U+FFFE, an invalid byte, a backslash before a pipe
// and a Markdown image.
constexpr const char* kHostile =
    "A100\n::error title=forged::x\x1b]0;PWNED\x07\x1b[2J \xC2\x9B \xEF\xBF\xBE \xFF a\\|b "
    "![i](https://e.example/p.png)";

EmitterFixture hostileReport() {
  EmitterFixture f;
  f.report.traces[0].lint.source = "run/a\n::error title=forged::y\xFF.json";
  f.report.traces[0].lint.diagnostics[0].message = std::string("slow on ") + kHostile;
  return f;
}

bool validUtf8(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = trace::validUtf8Length(std::string_view(text).substr(i));
    if (n == 0) return false;
    i += n;
  }
  return true;
}

bool hasControl(const std::string& text) {  // other than the line breaks between lines
  for (char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7F) return true;
  return text.find("\xC2\x9B") != std::string::npos;
}

bool forgesCommand(const std::string& text) {
  for (const std::string& line : lines(text))
    if (line.rfind("::error title=forged", 0) == 0) return true;
  return false;
}

TEST_CASE("hostile text: terminal formats show one line per finding, controls escaped",
          "[emitters][hostile]") {
  const EmitterFixture f = hostileReport();
  for (const char* format : {"text", "github"}) {
    INFO(format);
    const std::string out = f.render(format);
    CHECK(validUtf8(out));
    CHECK_FALSE(hasControl(out));
    CHECK_FALSE(forgesCommand(out));
  }
  const std::string text = f.render("text");
  CHECK(text.find("\\x1b]0;PWNED\\x07\\x1b[2J") != std::string::npos);  // shown, not sent
  CHECK(text.find("run/a\\n::error title=forged::y\xEF\xBF\xBD.json:step 3: SL201") !=
        std::string::npos);
}

TEST_CASE("hostile text: JUnit stays well-formed UTF-8 XML", "[emitters][hostile][junit]") {
  const std::string xml = hostileReport().render("junit");
  CHECK(validUtf8(xml));
  CHECK(xml.find("\xEF\xBF\xBE") == std::string::npos);  // U+FFFE is no XML character
  for (char c : xml)  // tab, CR and LF inside values are character references
    CHECK_FALSE((static_cast<unsigned char>(c) < 0x20 && c != '\n'));
  CHECK(xml.find("name=\"run/a&#10;::error title=forged::y\xEF\xBF\xBD.json\"") !=
        std::string::npos);
}

TEST_CASE("hostile text: Markdown keeps its table and headings", "[emitters][hostile][markdown]") {
  const std::string md = hostileReport().render("markdown");
  CHECK(validUtf8(md));
  CHECK_FALSE(forgesCommand(md));
  CHECK(md.find("### `run/a\\n::error title=forged::y\xEF\xBF\xBD.json`\n") != std::string::npos);
  for (const std::string& line : lines(md)) {
    if (line.rfind("| [SL201]", 0) != 0) continue;
    size_t cells = 0;  // unescaped '|' delimiters: 6 for 5 columns
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\')
        ++i;
      else if (line[i] == '|')
        ++cells;
    }
    CHECK(cells == 6);
    CHECK(line.find("a\\\\\\|b") != std::string::npos);       // the backslash and the pipe, escaped
    CHECK(line.find("!\\[i\\](https") != std::string::npos);  // no image
  }
}

TEST_CASE("hostile text: JSON and SARIF parse strictly", "[emitters][hostile]") {
  const EmitterFixture f = hostileReport();
  for (const char* format : {"json", "sarif"}) {
    INFO(format);
    const std::string out = f.render(format);
    CHECK(validUtf8(out));
    CHECK_NOTHROW(nlohmann::json::parse(out));
  }
}

}  // namespace
}  // namespace steplint::test
