// One test per quirk of real traces (kineto-trace-format.md §12): the events and the stats.
#include <catch2/catch.hpp>

#include "test_util.h"

using namespace steplint::trace;
using steplint::test::findEvent;
using steplint::test::importJson;

namespace {
std::string wrap(const std::string& events) { return R"({"traceEvents": [)" + events + "]}"; }
const char* kGood = R"({"ph": "X", "cat": "cpu_op", "name": "good", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
}  // namespace

TEST_CASE("quirk: bare N/A value is quoted", "[trace][quirk]") {
  const auto r = importJson(wrap(std::string(kGood) +
      R"(, {"ph": "X", "cat": "cpu_op", "name": "na", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"Input type": N/A}})"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "na"));
  CHECK(findEvent(r.model, "good"));
  CHECK(r.model.stats.get(Stat::json_bare_na_quoted) == 1);
}

TEST_CASE("quirk: raw control characters inside strings are escaped", "[trace][quirk]") {
  const auto r = importJson(wrap(std::string(kGood) +
      ",{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"tab\there\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 1}"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "tab\there"));
  CHECK(r.model.stats.get(Stat::json_control_char_escaped) == 1);
}

TEST_CASE("quirk: invalid UTF-8 becomes U+FFFD", "[trace][quirk]") {
  const auto r = importJson(wrap(std::string(kGood) +
      ",{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"bad\xff\xfe\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 1}"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "bad\xEF\xBF\xBD\xEF\xBF\xBD"));
  CHECK(findEvent(r.model, "good"));
  CHECK(r.model.stats.get(Stat::json_invalid_utf8) == 2);
}

TEST_CASE("quirk: unescaped quote inside a name", "[trace][quirk]") {
  const auto r = importJson(wrap(std::string(kGood) +
      R"(,{"ph": "X", "cat": "cpu_op", "name": "say "hi" now", "pid": 1, "tid": 1, "ts": 2, "dur": 1})"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "say \"hi\" now"));
  CHECK(r.model.stats.get(Stat::json_unescaped_quote) == 2);
}

TEST_CASE("quirk: integers beyond int64 keep the event", "[trace][quirk]") {
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 2, "dur": 1,
          "args": {"External id": 3, "Comms Id": 18446744073709551615, "Seq": 99999999999999999999}})"));
  REQUIRE(r.status.ok());
  const Event* e = findEvent(r.model, "record_param_comms");
  REQUIRE(e);
  CHECK(e->external_id == 3);
}

TEST_CASE("quirk: an External id beyond int64 is counted and dropped, the event kept", "[trace][quirk]") {
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "x", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"External id": 18446744073709551615}})"));
  REQUIRE(findEvent(r.model, "x"));
  CHECK(findEvent(r.model, "x")->external_id == kNoId);
  CHECK(r.model.stats.get(Stat::event_integer_overflow) == 1);
}

TEST_CASE("quirk: huge Record Window End does not stretch the timeline", "[trace][quirk]") {
  const auto r = importJson(wrap(std::string(kGood) +
      R"(,{"ph": "i", "s": "g", "name": "Record Window End", "pid": "", "tid": "", "ts": 999999999999999})"));
  REQUIRE(r.status.ok());
  CHECK(r.model.timeRange().second == 2000);
  CHECK(r.model.instants.size() == 1);
}

TEST_CASE("quirk: truncated file keeps the events before the cut", "[trace][quirk]") {
  std::string json = wrap(std::string(kGood) + "," + kGood + "," + kGood);
  json.resize(json.size() - 30);  // cut inside the third event
  const auto r = importJson(json);
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 2);
  CHECK(r.model.stats.get(Stat::json_truncated) == 1);
  CHECK(r.model.stats.hasDataLoss());
}

TEST_CASE("quirk: crashed writer's .tmp ends after a comma", "[trace][quirk]") {
  const auto r = importJson(std::string(R"({"schemaVersion": 1, "traceEvents": [)") + kGood + ",\n");
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 1);
  CHECK(r.model.stats.get(Stat::json_truncated) == 1);
}

TEST_CASE("quirk: events larger than the limit are skipped, memory stays bounded", "[trace][quirk]") {
  ImportOptions options;
  options.max_event_bytes = 1 << 20;
  std::string big = R"({"ph": "X", "cat": "cpu_op", "name": "big", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"s": ")";
  big += std::string(5 << 20, 'x');
  big += R"("}})";
  const auto r = importJson(wrap(std::string(kGood) + "," + big + "," + kGood), options);
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 2);
  CHECK(r.model.stats.get(Stat::json_event_too_large) == 1);
}

TEST_CASE("quirk: very deep nesting in an unused arg is skipped without recursion", "[trace][quirk]") {
  std::string deep = R"({"ph": "X", "cat": "cpu_op", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"a": )";
  deep += std::string(100000, '[') + std::string(100000, ']') + "}}";
  const auto r = importJson(wrap(std::string(kGood) + "," + deep + "," + kGood));
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 3);  // the deep value is skipped, the event kept
  CHECK(findEvent(r.model, "deep"));
}

TEST_CASE("quirk: very deep nesting in a field that is read is kept as text", "[trace][quirk]") {
  std::string deep = R"({"ph": "X", "cat": "cpu_op", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"Input Dims": )";
  deep += std::string(100000, '[') + std::string(100000, ']') + "}}";
  const auto r = importJson(wrap(std::string(kGood) + "," + deep + "," + kGood));
  REQUIRE(r.status.ok());
  // Valid JSON, just deep: On-Demand walks it iteratively, so it is kept, not a crash.
  REQUIRE(r.model.events.size() == 3);
  const Event* e = findEvent(r.model, "deep");
  REQUIRE(e);
  REQUIRE(r.model.op(*e));
  CHECK(r.model.str(r.model.op(*e)->input_dims).size() == 200000);
}

TEST_CASE("quirk: pid and tid as strings, floats and negative numbers", "[trace][quirk]") {
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "a", "pid": "1234", "tid": 5.0, "ts": 1, "dur": 1},
         {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1234, "tid": -7, "ts": 1, "dur": 1},
         {"ph": "X", "cat": "cpu_op", "name": "c", "pid": "my process", "tid": "worker", "ts": 1, "dur": 1})"));
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  CHECK(m.tracks[findEvent(m, "a")->track].pid == 1234);
  CHECK(m.tracks[findEvent(m, "a")->track].tid == 5);
  CHECK(m.tracks[findEvent(m, "b")->track].tid == -7);
  CHECK(m.str(m.tracks[findEvent(m, "c")->track].pid_label) == "my process");
}

TEST_CASE("quirk: trailing garbage after the trace is ignored", "[trace][quirk]") {
  const auto r = importJson(wrap(kGood) + std::string("\n\0\0garbage", 10));
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 1);
  CHECK(r.model.stats.get(Stat::json_trailing_garbage) == 1);
}

TEST_CASE("quirk: UTF-8 byte order mark", "[trace][quirk]") {
  const auto r = importJson("\xEF\xBB\xBF" + wrap(kGood));
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 1);
}

TEST_CASE("quirk: escaped quotes and backslashes in names do not confuse splitting", "[trace][quirk]") {
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "a\"}]{[\\", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
         {"ph": "X", "cat": "cpu_op", "name": "C:\\path\\", "pid": 1, "tid": 1, "ts": 2, "dur": 1})"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "a\"}]{[\\"));
  CHECK(findEvent(r.model, "C:\\path\\"));
}
