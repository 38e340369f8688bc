#include <catch2/catch.hpp>

#include <random>
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

// Runs `check` with every block kernel this CPU has, the portable one first (the reference),
// then the baseline (SSE2, NEON) and AVX2, AVX-512 or NEON with PMULL where present; then goes
// back to the automatic choice. INFO names the kernel on failure.
template <typename Check>
void forEachKernel(const Check& check) {
  using K = ArraySplitter::Kernel;
  int ran = 0;
  for (K kernel : {K::kPortable, K::kBaseline, K::kAvx2, K::kAvx512, K::kNeonPmull}) {
    if (!ArraySplitter::useKernel(kernel)) continue;
    INFO("kernel " << static_cast<int>(kernel));
    check();
    ++ran;
  }
  ArraySplitter::useKernel(K::kAuto);
  CHECK(ran >= 2);
}
}  // namespace

TEST_CASE("splitter finds objects, skipping brackets inside strings", "[trace][splitter]") {
  const std::string text =
      R"({"a": "}{"}, {"b": [1, {"c": "x\"]"}]},{"d":"\\"} , {"e": "\\\"}"}  ] tail)";
  forEachKernel([&] {
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
  });
}

TEST_CASE("splitter handles long backslash runs across block borders", "[trace][splitter]") {
  forEachKernel([] {
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
  });
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

TEST_CASE("every splitter kernel cuts random text the same way", "[trace][splitter]") {
  // Objects with strings full of brackets, quotes and backslash runs of every length, so that
  // escapes, in-string state and depth cross block borders in many places.
  std::mt19937 rng(18);
  const std::string alphabet = "{}[]\"\\\\\\ax,:";
  std::string text;
  for (int element = 0; element < 3000; ++element) {
    text += element % 3 == 0 ? "{\"k\": [1, {\"s\": \"" : "{\"s\": \"";
    const int length = static_cast<int>(rng() % 90);
    for (int i = 0; i < length; ++i) {
      const char c = alphabet[rng() % alphabet.size()];
      if (c == '"')
        text += "\\\"";  // a quote in a string is escaped ...
      else if (c == '\\')
        text += rng() % 2 ? "\\\\" : "\\n";  // ... and so is a backslash
      else
        text += c;
    }
    text += element % 3 == 0 ? "\"}]}, " : "\"}, ";
  }
  text += "]";
  std::vector<std::vector<std::string>> results;
  forEachKernel([&] {
    for (size_t step : {64, 100, 4096}) results.push_back(split(text, step));
  });
  REQUIRE(!results.empty());
  REQUIRE(results[0].size() == 3000);
  CHECK(results[0][1].rfind("{\"s\": \"", 0) == 0);
  for (const auto& r : results) CHECK(r == results[0]);
}

namespace {
// Feeds `text` as the importer does: `step` more bytes per scan, and before each refill the
// bytes before the open element (or the scan position) are dropped and the splitter rebased.
struct RefillResult {
  std::vector<std::string> elements;
  uint64_t scalars = 0, skipped = 0;
};
RefillResult splitWithRefills(const std::string& text, size_t step, size_t max_element) {
  ArraySplitter s;
  s.start(0, max_element);
  std::string buffer;
  size_t fed = 0;
  RefillResult result;
  std::vector<ArraySplitter::Element> out;
  while (true) {
    const size_t more = std::min(step, text.size() - fed);
    buffer.append(text, fed, more);
    fed += more;
    const bool final = fed == text.size();
    const auto r = s.scan(buffer.data(), buffer.size(), final, out);
    for (const auto& e : out) result.elements.push_back(buffer.substr(e.begin, e.end - e.begin));
    out.clear();
    if (r == ArraySplitter::Result::kArrayEnd || final) break;
    const size_t keep = s.inElement() && !s.skipping() ? s.elementStart() : s.position();
    buffer.erase(0, keep);
    s.rebase(keep);
  }
  result.scalars = s.scalarElements();
  result.skipped = s.skippedElements();
  return result;
}
}  // namespace

TEST_CASE("splitter counts the scalar elements between objects", "[trace][splitter]") {
  // Six scalars: a string holding a comma and brackets, literals, an escaped quote; whitespace
  // and single commas between elements are no element.
  const std::string text =
      " {\"a\":1},\n  5, \"s,}{[\" ,null,true,\t-1.5e3,{\"b\":[2]}, \"x\\\"y\",\r\n]";
  forEachKernel([&] {
    for (size_t step : {1, 2, 3, 7, 64, 65, 1000}) {
      INFO(step);
      const RefillResult r = splitWithRefills(text, step, SIZE_MAX);
      REQUIRE(r.elements.size() == 2);
      CHECK(r.elements[1] == "{\"b\":[2]}");
      CHECK(r.scalars == 6);
    }
  });
  // Kineto's own separators, a trailing comma, an empty array: no scalar.
  forEachKernel([&] {
    for (size_t step : {1, 5, 64}) {
      CHECK(splitWithRefills("{\"a\":1},\n  {\"b\":2},\n  {\"c\":3},\n]", step, SIZE_MAX).scalars ==
            0);
      CHECK(splitWithRefills("  ]", step, SIZE_MAX).scalars == 0);
    }
  });
  // A truncated file that ends inside a scalar still counts it once.
  CHECK(splitWithRefills("{\"a\":1}, 12", 3, SIZE_MAX).scalars == 1);
}

TEST_CASE("a skipped element's bytes are no scalars", "[trace][splitter]") {
  const std::string text =
      "{\"a\":1}, 7, {\"big\": \"" + std::string(1000, 'x') + " , 3 , \"}, \"tail\", {\"b\":2}]";
  for (size_t step : {1, 64, 300, 5000}) {
    INFO(step);
    const RefillResult r = splitWithRefills(text, step, 200);
    CHECK(r.elements.size() == 2);
    CHECK(r.skipped == 1);
    CHECK(r.scalars == 2);
  }
}
