// One test per quirk of real traces (docs/reference/trace-format.md §12): the events and the stats.
#include <catch2/catch.hpp>

#include "test_util.h"

using namespace steplint::trace;
using steplint::test::findEvent;
using steplint::test::importJson;

namespace {
std::string wrap(const std::string& events) { return R"({"traceEvents": [)" + events + "]}"; }
const char* kGood =
    R"({"ph": "X", "cat": "cpu_op", "name": "good", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
}  // namespace

TEST_CASE("quirk: bare N/A value is quoted", "[trace][quirk]") {
  const auto r = importJson(wrap(
      std::string(kGood) +
      R"(, {"ph": "X", "cat": "cpu_op", "name": "na", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"Input type": N/A}})"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "na"));
  CHECK(findEvent(r.model, "good"));
  CHECK(r.model.stats.get(Stat::json_bare_na_quoted) == 1);
}

TEST_CASE("quirk: raw control characters inside strings are escaped", "[trace][quirk]") {
  const auto r = importJson(wrap(
      std::string(kGood) +
      ",{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"tab\there\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 1}"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "tab\there"));
  CHECK(r.model.stats.get(Stat::json_control_char_escaped) == 1);
}

TEST_CASE("quirk: invalid UTF-8 becomes U+FFFD", "[trace][quirk]") {
  const auto r = importJson(wrap(
      std::string(kGood) +
      ",{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"bad\xff\xfe\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 1}"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "bad\xEF\xBF\xBD\xEF\xBF\xBD"));
  CHECK(findEvent(r.model, "good"));
  CHECK(r.model.stats.get(Stat::json_invalid_utf8) == 2);
}

TEST_CASE("quirk: an unpaired surrogate escape becomes U+FFFD, the name kept", "[trace][quirk]") {
  // JSON allows "\ud800"; Python's json.dumps writes it for such a str. simdjson refuses the
  // string, which used to leave the event nameless.
  const auto r = importJson(wrap(
      std::string(kGood) +
      R"(,{"ph": "X", "cat": "cpu_op", "name": "A\ud800B\n", "pid": 1, "tid": 1, "ts": 2, "dur": 1})"
      R"(,{"ph": "X", "cat": "cpu_op", "name": "pair \ud83d\ude00", "pid": 1, "tid": 1, "ts": 3, "dur": 1})"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model,
                  "A\xEF\xBF\xBD"
                  "B\n"));
  CHECK(findEvent(r.model, "pair \xF0\x9F\x98\x80"));  // a valid pair is one character
  CHECK(r.model.stats.get(Stat::json_invalid_utf8) == 1);
}

TEST_CASE("quirk: a GPU whose name has an invalid byte is kept", "[trace][quirk]") {
  const auto r = importJson(
      "{\"deviceProperties\": [{\"id\": 0, \"name\": \"A100\xff\", \"computeMajor\": 8}, "
      "{\"id\": 1, \"name\": \"H\\udc00\", \"computeMajor\": 9}], \"traceEvents\": [" +
      std::string(kGood) + "]}");
  REQUIRE(r.status.ok());
  REQUIRE(r.model.metadata.devices.size() == 2);
  CHECK(r.model.metadata.devices[0].name == "A100\xEF\xBF\xBD");
  CHECK(r.model.metadata.devices[0].compute_major == 8);
  CHECK(r.model.metadata.devices[1].name == "H\xEF\xBF\xBD");
  CHECK(r.model.stats.get(Stat::device_properties_bad) == 0);
  CHECK(r.model.stats.get(Stat::json_invalid_utf8) == 2);
}

TEST_CASE("quirk: unescaped quote inside a name", "[trace][quirk]") {
  const auto r = importJson(wrap(
      std::string(kGood) +
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

TEST_CASE("quirk: an External id beyond int64 is counted and dropped, the event kept",
          "[trace][quirk]") {
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "x", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"External id": 18446744073709551615}})"));
  REQUIRE(findEvent(r.model, "x"));
  CHECK(findEvent(r.model, "x")->external_id == kNoId);
  CHECK(r.model.stats.get(Stat::event_integer_overflow) == 1);
}

TEST_CASE("quirk: ids written as strings or floats are read, other types ignored",
          "[trace][quirk]") {
  // readInt parses a plain integer first and falls back to the value's type for the rest.
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 2,
          "dur": 1, "args": {"External id": "42", "correlation": 7.0, "cbid": true}},
         {"ph": "X", "cat": "cpu_op", "name": "y", "pid": 1, "tid": 1, "ts": 4, "dur": 1,
          "args": {"External id": null}})"));
  REQUIRE(r.status.ok());
  const Event* launch = findEvent(r.model, "cudaLaunchKernel");
  REQUIRE(launch);
  CHECK(launch->external_id == 42);
  CHECK(launch->correlation == 7);
  REQUIRE(findEvent(r.model, "y"));
  CHECK(findEvent(r.model, "y")->external_id == kNoId);
  CHECK(r.model.stats.get(Stat::event_integer_overflow) == 0);
}

TEST_CASE("quirk: huge Record Window End does not stretch the timeline", "[trace][quirk]") {
  const auto r = importJson(wrap(
      std::string(kGood) +
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
  const auto r =
      importJson(std::string(R"({"schemaVersion": 1, "traceEvents": [)") + kGood + ",\n");
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 1);
  CHECK(r.model.stats.get(Stat::json_truncated) == 1);
}

TEST_CASE("quirk: events larger than the limit are skipped, memory stays bounded",
          "[trace][quirk]") {
  ImportOptions options;
  options.max_event_bytes = 1 << 20;
  std::string big =
      R"({"ph": "X", "cat": "cpu_op", "name": "big", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"s": ")";
  big += std::string(5 << 20, 'x');
  big += R"("}})";
  const auto r = importJson(wrap(std::string(kGood) + "," + big + "," + kGood), options);
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 2);
  CHECK(r.model.stats.get(Stat::json_event_too_large) == 1);
}

TEST_CASE("quirk: very deep nesting in an unused arg is skipped without recursion",
          "[trace][quirk]") {
  std::string deep =
      R"({"ph": "X", "cat": "cpu_op", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"a": )";
  deep += std::string(100000, '[') + std::string(100000, ']') + "}}";
  const auto r = importJson(wrap(std::string(kGood) + "," + deep + "," + kGood));
  REQUIRE(r.status.ok());
  CHECK(r.model.events.size() == 3);  // the deep value is skipped, the event kept
  CHECK(findEvent(r.model, "deep"));
}

TEST_CASE("quirk: very deep nesting in a field that is read is kept as text", "[trace][quirk]") {
  std::string deep =
      R"({"ph": "X", "cat": "cpu_op", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"Input Dims": )";
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

TEST_CASE("quirk: a tid beyond int64 names its row instead of dropping the event",
          "[trace][quirk]") {
  // Chrome traces from other runtimes write uint64 thread ids (IBM's AIU traces).
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 18446744073709551615, "ts": 1, "dur": 1},
         {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 18446744073709551615 , "ts": 3, "dur": 1},
         {"ph": "X", "cat": "cpu_op", "name": "c", "pid": 1, "tid": 9223372036854775808, "ts": 1, "dur": 1})"));
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  REQUIRE(findEvent(m, "a"));
  REQUIRE(findEvent(m, "b"));
  REQUIRE(findEvent(m, "c"));
  CHECK(findEvent(m, "a")->track == findEvent(m, "b")->track);
  CHECK(findEvent(m, "a")->track != findEvent(m, "c")->track);
  CHECK(m.str(m.tracks[findEvent(m, "a")->track].tid_label) == "18446744073709551615");
  CHECK(m.stats.get(Stat::event_integer_overflow) == 0);
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

TEST_CASE("quirk: escaped quotes and backslashes in names do not confuse splitting",
          "[trace][quirk]") {
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "a\"}]{[\\", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
         {"ph": "X", "cat": "cpu_op", "name": "C:\\path\\", "pid": 1, "tid": 1, "ts": 2, "dur": 1})"));
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "a\"}]{[\\"));
  CHECK(findEvent(r.model, "C:\\path\\"));
}

TEST_CASE("quirk: a second JSON document after the trace is data loss, not garbage (#12)",
          "[trace][quirk]") {
  const std::string second =
      R"({"ph": "X", "cat": "cpu_op", "name": "lost", "pid": 1, "tid": 1, "ts": 5, "dur": 1})";
  for (const std::string& text : {wrap(kGood) + wrap(second), wrap(kGood) + "\n[" + second + "]\n",
                                  "[" + std::string(kGood) + "]\n" + wrap(second)}) {
    CAPTURE(text);
    const auto r = importJson(text);
    REQUIRE(r.status.ok());
    CHECK(r.model.events.size() == 1);
    CHECK_FALSE(findEvent(r.model, "lost"));
    CHECK(r.model.stats.get(Stat::json_second_document) == 1);
    CHECK(r.model.stats.get(Stat::json_trailing_garbage) == 0);
    CHECK(r.model.stats.hasDataLoss());
  }
}

TEST_CASE("quirk: baseTimeNanoseconds that cannot be unix ns is ignored and counted (#12)",
          "[trace][quirk]") {
  for (const char* value :
       {"1.8e22", "-5", "NaN", "\"1700000000000000000\"", "18446744073709551615", "null"}) {
    CAPTURE(value);
    const auto r = importJson(std::string(R"({"baseTimeNanoseconds": )") + value +
                              R"(, "traceEvents": [)" + kGood + "]}");
    REQUIRE(r.status.ok());
    CHECK(r.model.events.size() == 1);
    CHECK_FALSE(r.model.metadata.has_base_time);
    CHECK(r.model.metadata.base_time_ns == 0);
    CHECK(r.model.stats.get(Stat::base_time_invalid) == 1);
  }
  for (const char* value : {"1700000000123456789", "1.7e18", "0"}) {
    CAPTURE(value);
    const auto r = importJson(std::string(R"({"baseTimeNanoseconds": )") + value +
                              R"(, "traceEvents": [)" + kGood + "]}");
    CHECK(r.model.metadata.has_base_time);
    CHECK(r.model.stats.get(Stat::base_time_invalid) == 0);
  }
  CHECK(
      importJson(std::string(R"({"baseTimeNanoseconds": 1.7e18, "traceEvents": [)") + kGood + "]}")
          .model.metadata.base_time_ns == 1'700'000'000'000'000'000);
}

TEST_CASE("quirk: metadata numbers no integer field can hold are counted, not stored (#12)",
          "[trace][quirk]") {
  // The fuzzer's crash input: a double -> int64 cast of 849293475E72 is undefined behaviour
  // and stored -2^63 in release builds.
  const auto r = importJson(std::string(R"({"deviceProperties": [{"id": 0, "name": "A100",
      "totalGlobalMem": 849293475E72, "numSms": 1e10, "computeMajor": "99999999999", "computeMinor": "0",
      "regsPerBlock": -1e300, "warpSize": 32, "sharedMemPerBlock": 18446744073709551615,
      "maxThreadsPerBlock": 1024.0}],
      "distributedInfo": {"rank": 1e19, "world_size": 2}, "traceEvents": [)") +
                            kGood + "]}");
  REQUIRE(r.status.ok());
  REQUIRE(r.model.metadata.devices.size() == 1);
  const DeviceProperties& d = r.model.metadata.devices[0];
  CHECK(d.total_global_mem == -1);
  CHECK(d.num_sms == -1);
  CHECK(d.compute_major == -1);
  CHECK(d.compute_minor == 0);
  CHECK(d.regs_per_block == -1);
  CHECK(d.shared_mem_per_block == -1);
  CHECK(d.warp_size == 32);
  CHECK(d.max_threads_per_block == 1024);
  CHECK(r.model.metadata.distributed.rank == -1);
  CHECK(r.model.metadata.distributed.world_size == 2);
  CHECK(r.model.stats.get(Stat::top_level_number_out_of_range) == 6);
}

TEST_CASE("quirk: the fuzzer's crash input kept in fuzz/corpus imports cleanly (#12)",
          "[trace][quirk]") {
  TraceModel m;
  const ImportStatus status =
      importTraceFile(STEPLINT_FUZZ_CORPUS "/device_properties_out_of_range.json", m);
  REQUIRE(status.ok());
  CHECK(m.events.size() == 1);
  REQUIRE(m.metadata.devices.size() == 1);
  CHECK(m.metadata.devices[0].total_global_mem == -1);
  CHECK(m.stats.get(Stat::top_level_number_out_of_range) == 6);
  CHECK(m.stats.get(Stat::base_time_invalid) == 1);
  CHECK(m.stats.get(Stat::json_second_document) == 1);
}

TEST_CASE("quirk: a corrupt gzip header is named, not called an empty file (#12)",
          "[trace][quirk]") {
  for (const std::string& bytes :
       {std::string("\x1f\x8bXXXXXXXXXXXXXXXX"), std::string("\x1f\x8b\x08", 3)}) {
    const auto r = importJson(bytes);
    CHECK(r.status.error == ImportError::kIo);
    CHECK(r.status.message.find("empty file") == std::string::npos);
    CHECK((r.status.message.rfind("inline.json: corrupt gzip data (", 0) == 0 ||
           r.status.message == "inline.json: gzip stream ends early (truncated file)"));
  }
  CHECK(importJson(std::string("\x1f\x8bXXXXXXXXXXXXXXXX")).status.message ==
        "inline.json: corrupt gzip data (unknown compression method)");
}

TEST_CASE("quirk: a key written with an escape is not a key we know", "[trace][quirk]") {
  // Kineto never escapes a key; the importer compares keys as written. The same keys, plain
  // and with an escape near their start and near their end, at lengths 11 and 15: only the
  // plain ones are read.
  const auto r = importJson(wrap(
      R"({"ph": "X", "cat": "cpu_op", "name": "plain", "pid": 1, "tid": 1, "ts": 2, "dur": 1,
          "args": {"External id": 7, "Sequence number": 9}},
         {"ph": "X", "cat": "cpu_op", "name": "escaped", "pid": 1, "tid": 1, "ts": 4, "dur": 1,
          "args": {"Ext\u0065rnal id": 7, "Sequence num\u0062er": 9}},
         {"ph": "X", "cat": "cpu_op", "name": "late", "pid": 1, "tid": 1, "ts": 6, "dur": 1,
          "args": {"External i\u0064": 7, "S\u0065quence number": 9}})"));
  REQUIRE(r.status.ok());
  const Event* plain = findEvent(r.model, "plain");
  const Event* escaped = findEvent(r.model, "escaped");
  const Event* late = findEvent(r.model, "late");
  REQUIRE(plain);
  REQUIRE(escaped);
  REQUIRE(late);
  CHECK(plain->external_id == 7);
  CHECK(r.model.op(*plain)->sequence_number == 9);
  CHECK(escaped->external_id == kNoId);
  CHECK(late->external_id == kNoId);
  CHECK((r.model.op(*escaped) == nullptr || r.model.op(*escaped)->sequence_number == kNoId));
  CHECK((r.model.op(*late) == nullptr || r.model.op(*late)->sequence_number == kNoId));
}

TEST_CASE("quirk: keys are read whatever the spacing around their colon", "[trace][quirk]") {
  // The parser finds a key's end from its value, back over the colon and any whitespace.
  const auto r = importJson(wrap(
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"tight\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},"
      "{\"ph\" :\t\"X\", \"cat\"\n:\n\"cpu_op\", \"name\"  :  \"loose\", \"pid\":1, \"tid\":1,"
      " \"ts\"\r\n: 4, \"dur\" : 3, \"args\" : {\"External id\"\t:\t9}},"
      "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"escaped key\", \"pid\": 1, \"tid\": 1,"
      " \"ts\": 8, \"dur\": 1, \"d\\u0075r\": 5, \"a\\\"b\": 1}"));
  REQUIRE(r.status.ok());
  const Event* tight = findEvent(r.model, "tight");
  const Event* loose = findEvent(r.model, "loose");
  const Event* escaped = findEvent(r.model, "escaped key");
  REQUIRE(tight);
  REQUIRE(loose);
  REQUIRE(escaped);
  CHECK(tight->dur_ns == 2000);
  CHECK(loose->start_ns == 4000);
  CHECK(loose->dur_ns == 3000);
  CHECK(loose->external_id == 9);
  CHECK(r.model.str(loose->category) == "cpu_op");
  CHECK(escaped->dur_ns == 1000);  // a key with escapes is no key we read, even "d\u0075r"
}

TEST_CASE("quirk: counter series keep long names and unescape their keys", "[trace][quirk]") {
  const std::string long_name(80, 'x');
  const auto r =
      importJson(wrap(R"({"ph": "C", "name": "mem", "pid": 1, "tid": 0, "ts": 1, "args": {")" +
                      long_name + R"(": 1.5, "a\"b": 2, "plain" : 3}})"));
  REQUIRE(r.status.ok());
  REQUIRE(r.model.counters.size() == 3);
  CHECK(r.model.str(r.model.counters[0].series) == long_name);
  CHECK(r.model.counters[0].value == Approx(1.5));
  CHECK(r.model.str(r.model.counters[1].series) == "a\"b");
  CHECK(r.model.str(r.model.counters[2].series) == "plain");
}
