#include <catch2/catch.hpp>

#include "json_repair.h"

using namespace steplint::trace;

TEST_CASE("repair leaves valid JSON alone", "[trace][repair]") {
  ImportStats stats;
  std::string out;
  const std::string in = R"({"a": [1, -2.5e3, true, null], "b": "x\"y\\", "c": "é"})";
  CHECK_FALSE(repairJson(in, out, stats));
  CHECK(out == in);
}

TEST_CASE("repair fixes each known defect and counts it", "[trace][repair]") {
  ImportStats stats;
  std::string out;
  CHECK(repairJson("{\"a\": N/A, \"b\": NaN}", out, stats));
  CHECK(out == R"({"a": "N/A", "b": "NaN"})");
  CHECK(stats.get(Stat::json_bare_na_quoted) == 2);
  CHECK(repairJson("{\"a\": \"x\ty\"}", out, stats));
  CHECK(out == R"({"a": "x\u0009y"})");
  CHECK(repairJson("{\"a\": \"x\xffy\"}", out, stats));
  CHECK(out == "{\"a\": \"x\xEF\xBF\xBDy\"}");
  CHECK(repairJson(R"({"a": "say "hi"", "b": 1})", out, stats));
  CHECK(out == R"({"a": "say \"hi\"", "b": 1})");
}

TEST_CASE("UTF-8 validation rejects overlongs and surrogates", "[trace][repair]") {
  CHECK(validUtf8Length("\xC3\xA9") == 2);
  CHECK(validUtf8Length("\xF0\x9F\x98\x80") == 4);
  CHECK(validUtf8Length("\xC0\xAF") == 0);      // overlong '/'
  CHECK(validUtf8Length("\xED\xA0\x80") == 0);  // surrogate
  CHECK(validUtf8Length("\xE2\x82") == 0);      // cut short
}
