#include <catch2/catch.hpp>

#include <string>

#include "json_splitter.h"

using steplint::trace::ArraySplitter;

namespace {
// Splits `text` (the inside of an array) feeding it in pieces of `step` bytes, keeping the
// whole text in one buffer as the importer's chunks do.
std::vector<std::string> split(const std::string& text, size_t step, bool* closed = nullptr) {
  ArraySplitter s;
  s.start(0, SIZE_MAX);
  std::vector<ArraySplitter::Element> out;
  std::vector<std::string> parts;
  for (size_t size = std::min(step, text.size());; size = std::min(size + step, text.size())) {
    const bool final = size == text.size();
    const auto r = s.scan(text.data(), size, final, out);
    if (r == ArraySplitter::Result::kArrayEnd) {
      if (closed) *closed = true;
      break;
    }
    if (final) break;
  }
  for (const auto& e : out) parts.push_back(text.substr(e.begin, e.end - e.begin));
  return parts;
}
}  // namespace

TEST_CASE("splitter finds objects, skipping brackets inside strings", "[trace][splitter]") {
  const std::string text =
      R"({"a": "}{"}, {"b": [1, {"c": "x\"]"}]},{"d":"\\"} , {"e": "\\\"}"}  ] tail)";
  for (size_t step : {1, 7, 63, 64, 65, 1000}) {
    INFO(step);
    bool closed = false;
    const auto parts = split(text, step, &closed);
    REQUIRE(parts.size() == 4);
    CHECK(parts[0] == R"({"a": "}{"})");
    CHECK(parts[1] == R"({"b": [1, {"c": "x\"]"}]})");
    CHECK(parts[2] == R"({"d":"\\"})");
    CHECK(parts[3] == R"({"e": "\\\"}"})");
    CHECK(closed);
  }
}

TEST_CASE("splitter handles long backslash runs across block borders", "[trace][splitter]") {
  for (size_t pad = 0; pad < 70; ++pad) {
    // 63 backslashes then a quote: the quote is escaped (odd run), the brace after it is
    // inside the string, and the next quote closes it. Padding moves the run across blocks.
    const std::string text =
        "{\"k\": \"" + std::string(pad, 'x') + std::string(63, '\\') + "\"}\"}, {}]";
    const auto parts = split(text, 64);
    INFO(pad);
    REQUIRE(parts.size() == 2);
    CHECK(parts[1] == "{}");
  }
}

TEST_CASE("splitter reports elements over the limit as skipped", "[trace][splitter]") {
  const std::string text = "{\"a\":1}, {\"big\": \"" + std::string(1000, 'x') + "\"}, {\"b\":2}]";
  ArraySplitter s;
  s.start(0, 200);
  std::vector<ArraySplitter::Element> out;
  REQUIRE(s.scan(text.data(), text.size(), true, out) == ArraySplitter::Result::kArrayEnd);
  REQUIRE(out.size() == 2);
  CHECK(s.skippedElements() == 1);
}
