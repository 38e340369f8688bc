// KinetoJsonWriter: the text it writes, read back by steplint's own importer.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/stat.h>

#include <fstream>

#include "collector_test_util.h"
#include "steplint/trace/kineto_writer.h"
#include "steplint/trace/trace_file_names.h"

using steplint::test::ScratchDir;
using steplint::trace::KinetoJsonWriter;

namespace {

constexpr int64_t kOrigin = 5'000'000'000;  // writer clock value of ts = 0

steplint::trace::TraceHeader sampleHeader() {
  steplint::trace::TraceHeader h;
  h.rank = 3;
  h.world_size = 4;
  h.backend = "nccl";
  h.metadata = {{"cudnn_benchmark", "false"}, {"steplint_run", "\"demo\""}};
  h.base_time_ns = 1763800000000000000;
  h.clock_origin_ns = kOrigin;
  steplint::trace::WriterDeviceProperties d;
  d.name = "Test GPU";
  d.total_global_mem = 84929347584;
  d.compute_major = 9;
  d.num_sms = 132;
  h.devices.push_back(d);
  return h;
}

void writeSampleEvents(KinetoJsonWriter& w) {
  w.event('X')
      .cat("cpu_op")
      .name("aten::addmm")
      .pid(4242)
      .tid(4243)
      .ts(kOrigin + 120'250)
      .dur(30'125)
      .arg("External id", int64_t{7})
      .arg("Sequence number", int64_t{5})
      .rawArg("Input Dims", "[[8, 16], [16, 4]]")
      .done();
  w.event('X')
      .cat("user_annotation")
      .name("q\"b\\s\nl\x01")
      .pid(4242)
      .tid(4243)
      .ts(kOrigin + 100'000)
      .dur(900'000)
      .arg("blocks per SM", 0.5)
      .done();
  w.event('X')
      .cat("cpu_op")
      .name("bad\xff utf8 \xe2\x82")
      .pid(4242)
      .tid(4243)
      .ts(kOrigin - 50)
      .dur(-10)
      .done();
  w.event('i')
      .cat("cpu_instant_event")
      .name("marker")
      .pid(4242)
      .tid(4243)
      .ts(kOrigin + 2'000)
      .field("s", "\"t\"")
      .done();
}

void checkSample(const steplint::trace::TraceModel& m) {
  REQUIRE(m.metadata.distributed.present);
  CHECK(m.metadata.distributed.rank == 3);
  CHECK(m.metadata.distributed.world_size == 4);
  CHECK(m.metadata.distributed.backend == "nccl");
  CHECK(m.metadata.base_time_ns == 1763800000000000000);
  CHECK(m.metadata.trace_name == "run/trace");
  REQUIRE(m.metadata.devices.size() == 1);
  CHECK(m.metadata.devices[0].name == "Test GPU");
  CHECK(m.metadata.devices[0].num_sms == 132);
  CHECK(steplint::test::extraValue(m, "cudnn_benchmark") == "false");
  CHECK(steplint::test::extraValue(m, "steplint_run") == "\"demo\"");
  CHECK(steplint::test::extraValue(m, "steplint_dropped_events") == "0");

  auto addmm = steplint::test::eventsNamed(m, "aten::addmm");
  REQUIRE(addmm.size() == 1);
  CHECK(addmm[0]->start_ns == 120'250);
  CHECK(addmm[0]->dur_ns == 30'125);
  CHECK(addmm[0]->external_id == 7);
  REQUIRE(addmm[0]->detail != steplint::trace::kNoIndex);
  CHECK(m.op_details[addmm[0]->detail].sequence_number == 5);
  CHECK(m.strings.view(m.op_details[addmm[0]->detail].input_dims) == "[[8, 16], [16, 4]]");
  CHECK(m.tracks[addmm[0]->track].pid == 4242);
  CHECK(m.tracks[addmm[0]->track].tid == 4243);

  auto escaped = steplint::test::eventsNamed(m, "q\"b\\s\nl\x01");
  REQUIRE(escaped.size() == 1);
  CHECK(escaped[0]->dur_ns == 900'000);

  auto bad = steplint::test::eventsNamed(m, "bad\xEF\xBF\xBD utf8 \xEF\xBF\xBD\xEF\xBF\xBD");
  REQUIRE(bad.size() == 1);
  CHECK(bad[0]->start_ns == 0);  // before the origin: clamped
  CHECK(bad[0]->dur_ns == 0);    // negative: clamped
  REQUIRE(m.instants.size() == 1);
  CHECK(m.instants[0].ts_ns == 2'000);
  CHECK(m.stats.get(steplint::trace::Stat::json_truncated) == 0);
  CHECK(m.stats.get(steplint::trace::Stat::json_invalid_utf8) == 0);
}

void writeSample(const std::string& path) {
  KinetoJsonWriter w;
  std::string error;
  REQUIRE(w.open(path, &error));
  w.beginTrace(sampleHeader());
  writeSampleEvents(w);
  w.flush();
  CHECK(w.eventsWritten() == 4);
  steplint::trace::TraceTrailer trailer;
  trailer.metadata = {{"steplint_dropped_events", "0"}};
  trailer.trace_name = "run/trace";
  REQUIRE(w.endTrace(trailer, &error));
}

}  // namespace

TEST_CASE("kineto writer: plain file round-trips through the importer") {
  ScratchDir dir;
  const std::string path = dir.file("t.pt.trace.json");
  writeSample(path);
  CHECK_FALSE(steplint::test::fileExists(path + ".partial"));
  const std::string text = steplint::test::readAll(path);
  // HTA's rank regex needs the space; key order of docs/reference/trace-format.md §13.
  CHECK(text.find("\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 4}") !=
        std::string::npos);
  const char* keys[] = {
      "\"schemaVersion\": 1", "\"deviceProperties\"",        "\"distributedInfo\"",
      "\"cudnn_benchmark\"",  "\"displayTimeUnit\": \"ms\"", "\"baseTimeNanoseconds\"",
      "\"traceEvents\"",      "\"steplint_dropped_events\"", "\"traceName\""};
  size_t last = 0;
  for (const char* key : keys) {
    size_t at = text.find(key);
    INFO(key);
    REQUIRE(at != std::string::npos);
    CHECK(at >= last);
    last = at;
  }
  CHECK(text.find("\"ts\": 120.250, \"dur\": 30.125") != std::string::npos);
  CHECK(text.find("\"blocks per SM\": 0.5") != std::string::npos);
  CHECK(text.find("\\u0001") != std::string::npos);

  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  checkSample(m);
}

TEST_CASE("kineto writer: gzip output round-trips through the importer") {
  ScratchDir dir;
  const std::string path = dir.file("t.pt.trace.json.gz");
  writeSample(path);
  const std::string bytes = steplint::test::readAll(path);
  REQUIRE(bytes.size() > 2);
  CHECK(static_cast<unsigned char>(bytes[0]) == 0x1f);
  CHECK(static_cast<unsigned char>(bytes[1]) == 0x8b);
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  checkSample(m);
}

TEST_CASE("kineto writer: an unfinished trace stays a readable .partial file") {
  const char* name = GENERATE("p.pt.trace.json", "p.pt.trace.json.gz");
  ScratchDir dir;
  const std::string path = dir.file(name);
  {
    KinetoJsonWriter w;
    std::string error;
    REQUIRE(w.open(path, &error));
    w.beginTrace(sampleHeader());
    for (int i = 0; i < 3; ++i) {
      w.event('X')
          .cat("cpu_op")
          .name("op" + std::to_string(i))
          .pid(1)
          .tid(2)
          .ts(kOrigin + i * 1000)
          .dur(500)
          .done();
    }
    w.flush();
  }  // destroyed without endTrace, as after a crash
  CHECK_FALSE(steplint::test::fileExists(path));
  REQUIRE(steplint::test::fileExists(path + ".partial"));
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path + ".partial", m).ok());
  CHECK(m.events.size() == 3);
  CHECK(steplint::test::eventsNamed(m, "op2").size() == 1);
  CHECK(m.stats.get(steplint::trace::Stat::json_truncated) == 1);
}

TEST_CASE("kineto writer: open fails with a message for an unwritable path") {
  KinetoJsonWriter w;
  std::string error;
  CHECK_FALSE(w.open("/nonexistent-dir/x/t.json", &error));
  CHECK(error.find("/nonexistent-dir/x/t.json.partial") != std::string::npos);
}

TEST_CASE(
    "kineto writer: a path another writer holds is refused as in use, and free again once finished (#16)") {
  ScratchDir dir;
  const std::string path = dir.file("shared.pt.trace.json");
  std::string error;
  KinetoJsonWriter first;
  REQUIRE(first.open(path, &error));
  first.beginTrace(sampleHeader());
  first.event('X').cat("cpu_op").name("first").pid(1).tid(1).ts(kOrigin).dur(10).done();
  {
    KinetoJsonWriter
        second;  // a new open file description: its flock conflicts, as another process's would
    CHECK_FALSE(second.open(path, &error));
    CHECK(second.openFailedInUse());
    CHECK(error.find("another process is writing it") != std::string::npos);
  }
  REQUIRE(first.endTrace({}, &error));  // the refused writer neither truncated nor wrote into it
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  CHECK(steplint::test::eventsNamed(m, "first").size() == 1);
  KinetoJsonWriter later;
  CHECK(later.open(path, &error));
  CHECK_FALSE(later.openFailedInUse());
}

TEST_CASE("trace file names: a process tag goes before the trace suffix (#16)") {
  using steplint::trace::processTracePath;
  CHECK(processTracePath("/r/t.pt.trace.json.gz", "rank3") == "/r/t.rank3.pt.trace.json.gz");
  CHECK(processTracePath("/r/t.pt.trace.json", "pid42") == "/r/t.pid42.pt.trace.json");
  CHECK(processTracePath("/r.d/t.json.gz", "rank0") == "/r.d/t.rank0.json.gz");
  CHECK(processTracePath("t.json", "rank1") == "t.rank1.json");
  CHECK(processTracePath("/r/trace", "rank1") == "/r/trace.rank1");  // no known suffix: appended
  CHECK(processTracePath("/r/.gz", "rank1") == "/r/.gz.rank1");      // a suffix alone is no suffix
  CHECK(processTracePath(processTracePath("/r/t.json", "rank2"), "pid7") == "/r/t.rank2.pid7.json");
}

TEST_CASE("kineto writer: appendJsonString escapes per RFC 8259 and repairs UTF-8") {
  std::string out;
  steplint::trace::appendJsonString(out, std::string_view("a\"\\\b\f\n\r\t\x1f\x7f"
                                                          "\xc3\xa9"
                                                          "\xed\xa0\x80"
                                                          "\xf0\x9f\x98\x80",
                                                          19));
  CHECK(out ==
        "\"a\\\"\\\\\\b\\f\\n\\r\\t\\u001f\x7f"
        "\xc3\xa9"
        "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
        "\xf0\x9f\x98\x80\"");
}

TEST_CASE(
    "kineto writer: refuses a FIFO or a directory at the path or its .partial, without blocking") {
  ScratchDir dir;
  const std::string fifo = dir.file("fifo.json");
  const std::string fifo_partial = dir.file("p.json");
  const std::string directory = dir.file("dir.json");
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  REQUIRE(mkfifo((fifo_partial + ".partial").c_str(), 0644) == 0);
  REQUIRE(std::filesystem::create_directory(directory));
  // In a child: before the fix, opening the FIFO .partial blocked forever (no reader).
  const int rc = steplint::test::runInChild(
      [&] {
        int refused = 0;
        for (const std::string& path : {fifo, fifo_partial, directory}) {
          KinetoJsonWriter w;
          std::string error;
          refused += !w.open(path, &error) && error.find("not a regular file") != std::string::npos
                         ? 1
                         : 0;
        }
        return refused;
      },
      std::chrono::seconds(10));
  CHECK(rc == 3);
  struct stat st {};
  REQUIRE(stat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(std::filesystem::is_directory(directory));
}

TEST_CASE("kineto writer: a write that fails names its reason and keeps the .partial") {
  const char* name = GENERATE("big.pt.trace.json", "big.pt.trace.json.gz");
  ScratchDir dir;
  const std::string path = dir.file(name);
  const std::string result = dir.file("result.txt");
  // A file size limit stands in for a full disk: with SIGXFSZ ignored, write() fails (EFBIG).
  const int rc = steplint::test::runInChild([&] {
    signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    getrlimit(RLIMIT_FSIZE, &saved);
    rlimit small = saved;
    small.rlim_cur = 64 * 1024;
    setrlimit(RLIMIT_FSIZE, &small);
    KinetoJsonWriter w;
    std::string error;
    if (!w.open(path, &error)) return 10;
    w.beginTrace(sampleHeader());
    for (int i = 0; i < 50000; ++i)  // ~5 MB of text: beyond the limit even compressed
      w.event('X')
          .cat("cpu_op")
          .name("op" + std::to_string(i))
          .pid(1)
          .tid(i)
          .ts(kOrigin + i * 977)
          .dur(i)
          .done();
    const bool ended = w.endTrace({}, &error);
    setrlimit(RLIMIT_FSIZE, &saved);
    std::ofstream(result) << w.writeError() << "\n" << error;
    return ended ? 11 : 0;
  });
  REQUIRE(rc == 0);
  const std::string text = steplint::test::readAll(result);
  INFO(text);
  CHECK(text.rfind("File too large\n", 0) == 0);
  CHECK(text.find("write to " + path + ".partial failed: File too large") != std::string::npos);
  CHECK_FALSE(steplint::test::fileExists(path));
  CHECK(steplint::test::fileExists(path + ".partial"));
}

TEST_CASE("kineto writer: appendTraceMetadata adds a top-level key to a finished trace") {
  const char* name = GENERATE("a.pt.trace.json", "a.pt.trace.json.gz");
  ScratchDir dir;
  const std::string path = dir.file(name);
  writeSample(path);
  std::string error;
  REQUIRE(steplint::trace::appendTraceMetadata(path, "steplint_stopped_early",
                                               "\"stopped at SIGTERM\"", &error));
  CHECK_FALSE(steplint::test::fileExists(path + ".partial"));
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  checkSample(m);  // everything that was there still is
  CHECK(m.stats.get(steplint::trace::Stat::json_truncated) == 0);
  CHECK(steplint::test::extraValue(m, "steplint_stopped_early") == "\"stopped at SIGTERM\"");
}

TEST_CASE("kineto writer: appendTraceMetadata leaves a file that is not a finished trace alone") {
  ScratchDir dir;
  const std::string path = dir.file("cut.pt.trace.json");
  std::ofstream(path) << "{\"traceEvents\": [";
  std::string error;
  CHECK_FALSE(steplint::trace::appendTraceMetadata(path, "k", "1", &error));
  CHECK(error == path + " is not a finished steplint trace; cannot add k");
  CHECK(steplint::test::readAll(path) == "{\"traceEvents\": [");
  CHECK_FALSE(steplint::test::fileExists(path + ".partial"));
}
