// A whole session through the public C API and recorder.h, read back with the importer.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "collector_test_util.h"
#include "config.h"
#include "recorder.h"
#include "session.h"
#include "steplint/collector.h"
#include "steplint/trace/trace_head.h"

namespace sc = steplint::collector;
using steplint::test::eventsNamed;
using steplint::test::extraValue;
using steplint::test::ScratchDir;

namespace {

void recordOp(const char* name, int64_t start_ns, int64_t end_ns, uint8_t flags = 0) {
  sc::HostEvent e;
  e.name = name;
  e.start_ns = start_ns;
  e.end_ns = end_ns;
  e.external_id = sc::nextExternalId();
  e.seq_nr = 11;
  e.args_json = "\"Input Dims\": [[2, 3]], \"Input type\": [\"float\"]";
  e.flags = flags;
  sc::recordHostEvent(e);
}

sc::CollectorConfig testConfig(const std::string& path) {
  sc::CollectorConfig c;
  c.output_path = path;
  c.flush_interval_ms = 20;
  return c;
}

}  // namespace

TEST_CASE("session: C API steps, ranges, metadata and thread names reach the trace") {
  ScratchDir dir;
  const std::string path = dir.file("api.pt.trace.json");
  steplint::annotate("dataloader_workers", 4);
  REQUIRE(steplint_start(path.c_str()) == 0);
  CHECK(steplint_is_recording() == 1);
  CHECK(steplint_start(path.c_str()) == 1);  // joined
  CHECK(steplint_stop() == 0);               // the joined stop is ignored...
  CHECK(steplint_is_recording() == 1);       // ...so recording goes on
  steplint::annotate("late_key", "late value");
  for (int64_t n = 0; n < 3; ++n) {
    steplint::StepScope step{n};
    { steplint::DataLoaderWait wait; }
    steplint::Range forward{"forward"};
    const int64_t t = sc::nowNs();
    recordOp("aten::mm", t, t + 1000, sc::kFlagHostSync);
  }
  std::thread([] {
    pthread_setname_np(pthread_self(), "worker_x");
    steplint::Range r{"on_worker"};
  }).join();
  REQUIRE(steplint_stop() == 0);
  CHECK(steplint_is_recording() == 0);
  CHECK(steplint_stop() == 1);  // nothing to stop

  const std::string text = steplint::test::readAll(path);
  CHECK(text.find("\"steplint_host_sync\": 1") != std::string::npos);
  CHECK(text.find("\"rank\": 0") != std::string::npos);
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  CHECK(m.stats.get(steplint::trace::Stat::json_truncated) == 0);
  for (int n = 0; n < 3; ++n) {
    auto steps = eventsNamed(m, "ProfilerStep#" + std::to_string(n));
    REQUIRE(steps.size() == 1);
    CHECK(steps[0]->kind == steplint::trace::EventKind::kUserAnnotation);
  }
  auto mm = eventsNamed(m, "aten::mm");
  REQUIRE(mm.size() == 3);
  CHECK(mm[0]->dur_ns == 1000);
  CHECK(m.strings.view(m.op_details[mm[0]->detail].input_dims) == "[[2, 3]]");
  auto forward = eventsNamed(m, "forward");
  REQUIRE(forward.size() == 3);
  REQUIRE(mm[0]->parent != steplint::trace::kNoIndex);
  CHECK(steplint::test::eventName(m, m.events[mm[0]->parent]) == "forward");
  CHECK(steplint::test::eventName(m, m.events[forward[0]->parent]).rfind("ProfilerStep#", 0) == 0);
  CHECK(eventsNamed(m, "enumerate(DataLoader)#CppDataLoaderIter.__next__").size() == 3);
  auto worker = eventsNamed(m, "on_worker");
  REQUIRE(worker.size() == 1);
  const auto& track = m.tracks[worker[0]->track];
  CHECK(track.pid == static_cast<int64_t>(getpid()));
  CHECK(m.strings.view(track.thread_name) == "thread " + std::to_string(track.tid) + " (worker_x)");
  CHECK(eventsNamed(m, "PyTorch Profiler (0)").size() == 1);
  CHECK(extraValue(m, "dataloader_workers") == "4");
  CHECK(extraValue(m, "late_key") == "\"late value\"");
  CHECK(extraValue(m, "steplint_dropped_events") == "0");
  CHECK(extraValue(m, "steplint_sources").find("\"torch\": \"not built\"") != std::string::npos);
  CHECK(extraValue(m, "pid") == std::to_string(getpid()));
  CHECK_FALSE(extraValue(m, "command_line").empty());
}

TEST_CASE("session: the schedule keeps only active steps") {
  ScratchDir dir;
  const std::string path = dir.file("sched.pt.trace.json");
  sc::CollectorConfig c = testConfig(path);
  REQUIRE(sc::parseSchedule("1,1,2,1", &c.schedule));
  REQUIRE(sc::startSession(c) == sc::StartResult::kStarted);
  CHECK_FALSE(sc::isCapturing());  // before the first step: wait
  for (int64_t n = 0; n < 6; ++n) {
    steplint::StepScope step{n};
    const int64_t t = sc::nowNs();
    recordOp(("op" + std::to_string(n)).c_str(), t, t + 10);
  }
  REQUIRE(sc::stopSession());
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  for (int n = 0; n < 6; ++n) {
    const bool active = n == 2 || n == 3;
    INFO("step " << n);
    CHECK(eventsNamed(m, "ProfilerStep#" + std::to_string(n)).size() == (active ? 1u : 0u));
    CHECK(eventsNamed(m, "op" + std::to_string(n)).size() == (active ? 1u : 0u));
  }
  auto span = eventsNamed(m, "PyTorch Profiler (0)");
  auto step2 = eventsNamed(m, "ProfilerStep#2");
  REQUIRE(span.size() == 1);
  REQUIRE(step2.size() == 1);
  CHECK(span[0]->start_ns <= step2[0]->start_ns);
}

TEST_CASE("session: iterations counted live under a schedule are written as their steps") {
  // A trainer without step markers (steplint record): without these ranges the window's last
  // iteration, whose end lies outside it, was lost.
  ScratchDir dir;
  const std::string path = dir.file("counted.pt.trace.json");
  sc::CollectorConfig c = testConfig(path);
  REQUIRE(sc::parseSchedule("1,1,2,1", &c.schedule));
  REQUIRE(sc::startSession(c) == sc::StartResult::kStarted);
  for (int64_t n = 0; n < 6; ++n) {
    sc::onIterationDetected();
    const int64_t t = sc::nowNs();
    recordOp(("op" + std::to_string(n)).c_str(), t, t + 10);
  }
  REQUIRE(sc::stopSession());
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  for (int n = 0; n < 6; ++n) {
    INFO("step " << n);
    const auto step = eventsNamed(m, "ProfilerStep#" + std::to_string(n));
    REQUIRE(step.size() == (n == 2 || n == 3 ? 1u : 0u));
    if (step.empty()) continue;
    // From its boundary to the next: it holds its own iteration's op and no other.
    for (int k = 2; k < 4; ++k) {
      const auto op = eventsNamed(m, "op" + std::to_string(k));
      REQUIRE(op.size() == 1);
      const bool inside =
          op[0]->start_ns >= step[0]->start_ns && op[0]->end_ns() <= step[0]->end_ns();
      CHECK(inside == (k == n));
    }
  }
}

TEST_CASE("session: without a schedule, iterations counted live add no step ranges") {
  ScratchDir dir;
  const std::string path = dir.file("unscheduled.pt.trace.json");
  REQUIRE(sc::startSession(testConfig(path)) == sc::StartResult::kStarted);
  for (int64_t n = 0; n < 3; ++n) sc::onIterationDetected();
  REQUIRE(sc::stopSession());
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  for (int n = 0; n < 3; ++n) CHECK(eventsNamed(m, "ProfilerStep#" + std::to_string(n)).empty());
}

TEST_CASE("session: a tiny buffer budget drops events and the trailer counts them") {
  ScratchDir dir;
  const std::string path = dir.file("drop.pt.trace.json");
  sc::CollectorConfig c = testConfig(path);
  c.max_buffer_bytes = uint64_t{256} << 10;
  c.flush_interval_ms = 600'000;  // no drain while appending
  REQUIRE(sc::startSession(c) == sc::StartResult::kStarted);
  constexpr int kAppended = 20'000;
  for (int i = 0; i < kAppended; ++i) recordOp("ev", 1000 + i, 1001 + i);
  REQUIRE(sc::stopSession());
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  const size_t written = eventsNamed(m, "ev").size();
  const std::string dropped_text = extraValue(m, "steplint_dropped_events");
  REQUIRE_FALSE(dropped_text.empty());
  const long long dropped = std::stoll(dropped_text);
  CHECK(dropped > 0);
  CHECK(written > 0);
  CHECK(static_cast<long long>(written) + dropped == kAppended);
  CHECK(extraValue(m, "steplint_warnings").find(std::to_string(dropped) + " host events dropped") !=
        std::string::npos);
}

TEST_CASE("session: an unwritable output fails to start with code 2") {
  CHECK(steplint_start("/proc/steplint-test/t.json") == 2);
  CHECK(sc::startSession(testConfig("/proc/steplint-test/t.json")) == sc::StartResult::kFailed);
  CHECK(steplint_is_recording() == 0);
}

TEST_CASE(
    "session: a path naming the user's own file records beside it, an old trace is replaced") {
  // STEPLINT_OUTPUT=train.py (or Session{"config.yaml"}) replaced the script with the trace.
  ScratchDir dir;
  const std::string script = dir.file("train.py");
  std::ofstream(script) << "print('training')\n";
  REQUIRE(sc::startSession(testConfig(script)) == sc::StartResult::kStarted);
  std::string written;
  REQUIRE(sc::stopSession(&written));
  CHECK(written == script + ".pid" + std::to_string(getpid()) + ".pt.trace.json");
  std::ifstream in(script);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "print('training')\n");
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(written, m).ok());
  CHECK(extraValue(m, "steplint_warnings").find(script + " is not a trace: kept") !=
        std::string::npos);

  // An earlier trace at the path is the user's previous run: replaced, as before.
  REQUIRE(sc::startSession(testConfig(written)) == sc::StartResult::kStarted);
  std::string again;
  REQUIRE(sc::stopSession(&again));
  CHECK(again == written);
  CHECK_FALSE(steplint::trace::mayReplaceWithTrace(script));
  CHECK(steplint::trace::mayReplaceWithTrace(written));
  CHECK(steplint::trace::mayReplaceWithTrace(dir.file("absent.json")));
  // gzip: a trace by its name only; a tarball is the user's.
  for (const char* name : {"old.pt.trace.json.gz", "backup.tar.gz"})
    std::ofstream(dir.file(name)) << std::string("\x1f\x8b\x08\x00", 4) << "data";
  CHECK(steplint::trace::mayReplaceWithTrace(dir.file("old.pt.trace.json.gz")));
  CHECK_FALSE(steplint::trace::mayReplaceWithTrace(dir.file("backup.tar.gz")));
}
