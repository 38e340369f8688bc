// displayText, displayWidth and truncateMiddle: what reaches a terminal or a log from a trace.
#include <catch2/catch.hpp>

#include "steplint/analyzer/display_text.h"

using steplint::analyzer::displayText;
using steplint::analyzer::displayWidth;
using steplint::analyzer::truncateMiddle;

TEST_CASE("displayText: printable text, non-ASCII included, is unchanged", "[display]") {
  CHECK(displayText("aten::conv2d") == "aten::conv2d");
  CHECK(displayText("12.5 \xC2\xB5s \xE2\x86\x92 \xF0\x9F\x98\x80") ==
        "12.5 \xC2\xB5s \xE2\x86\x92 \xF0\x9F\x98\x80");  // µs → 😀
  CHECK(displayText("") == "");
}

TEST_CASE("displayText: controls, separators and bidi overrides are shown escaped", "[display]") {
  CHECK(displayText("a\nb\r\tc") == "a\\nb\\r\\tc");
  CHECK(displayText("x\x1b]0;T\x07\x1b[2J") == "x\\x1b]0;T\\x07\\x1b[2J");
  CHECK(displayText(std::string("n\0l", 3)) == "n\\x00l");
  CHECK(displayText("del\x7f") == "del\\x7f");
  CHECK(displayText("c1\xC2\x9B") == "c1\\x9b");                // U+009B, CSI on 8-bit terminals
  CHECK(displayText("ls\xE2\x80\xA8") == "ls\\u2028");          // line separator
  CHECK(displayText("rlo\xE2\x80\xAEtxt") == "rlo\\u202etxt");  // right-to-left override
}

TEST_CASE("displayText: invalid UTF-8 becomes U+FFFD, byte by byte", "[display]") {
  CHECK(displayText("a\xFF"
                    "b") ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(displayText("\xE2\x82") == "\xEF\xBF\xBD\xEF\xBF\xBD");                  // cut short
  CHECK(displayText("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
}

TEST_CASE("truncateMiddle: counts and cuts characters, not bytes", "[display]") {
  CHECK(truncateMiddle("abcdefghijklmnopqrstuvwxyz", 11) == "abcde...xyz");
  CHECK(truncateMiddle("short", 11) == "short");
  CHECK(truncateMiddle("abcdefghijklmnopqrstuvwxyz", 5) == "abcdefghijklmnopqrstuvwxyz");
  std::string smileys;
  for (int i = 0; i < 20; ++i) smileys += "\xF0\x9F\x98\x80";  // 20 characters, 80 bytes
  CHECK(truncateMiddle(smileys, 30) == smileys);
  const std::string cut = truncateMiddle(smileys, 11);
  CHECK(displayWidth(cut) == 11);
  CHECK(cut == smileys.substr(0, 5 * 4) + "..." + smileys.substr(0, 3 * 4));
  CHECK(displayText(cut) == cut);  // still valid UTF-8
}
