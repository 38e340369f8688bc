// NVTX through its injection hook: this binary's header-only nvtx3 loader dlopens
// steplint_collector (NVTX_INJECTION64_PATH) at the process's first NVTX call and calls its
// InitializeInjectionNvtx2; ranges and marks made while a session records must reach the trace.
//
// NVTX initialises once per process, so every TEST_CASE first calls useCollectorInjection(),
// before any NVTX call: under ctest each case runs in its own process (catch_discover_tests),
// and run all at once the first case's call is the one that counts.
#include <catch2/catch.hpp>

#include <nvtx3/nvToolsExt.h>

#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "collector_test_util.h"
#include "steplint/collector.h"

namespace st = steplint::trace;
using steplint::test::eventsNamed;
using steplint::test::ScratchDir;

namespace {

// Must run before this process's first NVTX call. Only NVTX is under test: the torch and
// CUPTI sources stay off so a session starts fast and the trace holds NVTX events only.
void useCollectorInjection() {
  REQUIRE(setenv("NVTX_INJECTION64_PATH", STEPLINT_COLLECTOR_LIB, 1) == 0);
  setenv("STEPLINT_TORCH", "0", 1);
  setenv("STEPLINT_CUPTI", "0", 1);
  setenv("STEPLINT_NVTX", "1", 1);
}

void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

int64_t osTid() { return static_cast<int64_t>(syscall(SYS_gettid)); }

const st::Event& only(const st::TraceModel& m, const std::string& name) {
  auto found = eventsNamed(m, name);
  REQUIRE(found.size() == 1);
  return *found[0];
}

std::vector<const st::InstantEvent*> instantsNamed(const st::TraceModel& m,
                                                   const std::string& name) {
  std::vector<const st::InstantEvent*> out;
  for (const auto& i : m.instants) {
    if (m.str(i.name) == name) out.push_back(&i);
  }
  return out;
}

void importTrace(const std::string& path, st::TraceModel& m) {
  REQUIRE(steplint::test::importFile(path, m).ok());
  CHECK(m.stats.get(st::Stat::json_truncated) == 0);
}

nvtxEventAttributes_t asciiAttributes(const char* message) {
  nvtxEventAttributes_t attr{};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.colorType = NVTX_COLOR_ARGB;
  attr.color = 0xff00ff00u;
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = message;
  return attr;
}

}  // namespace

TEST_CASE("nvtx: nested push/pop ranges and a mark on the main thread") {
  useCollectorInjection();
  ScratchDir dir;
  const std::string path = dir.file("nested.pt.trace.json");
  REQUIRE(steplint_start(path.c_str()) == 0);
  const int64_t tid = osTid();
  CHECK(nvtxRangePushA("nvtx_outer") == 0);  // the 0-based level of the new range
  sleepMs(1);
  CHECK(nvtxRangePushA("nvtx_inner") == 1);
  sleepMs(1);
  nvtxMarkA("nvtx_mark");
  sleepMs(1);
  CHECK(nvtxRangePop() == 1);  // the level of the range ended
  sleepMs(1);
  CHECK(nvtxRangePop() == 0);
  REQUIRE(steplint_stop() == 0);

  st::TraceModel m;
  importTrace(path, m);
  const st::Event& outer = only(m, "nvtx_outer");
  const st::Event& inner = only(m, "nvtx_inner");
  CHECK(outer.kind == st::EventKind::kUserAnnotation);
  CHECK(inner.kind == st::EventKind::kUserAnnotation);
  CHECK(m.str(outer.category) == "user_annotation");
  CHECK(m.str(inner.category) == "user_annotation");
  REQUIRE(outer.track == inner.track);
  CHECK(m.tracks[outer.track].kind == st::TrackKind::kCpuThread);
  CHECK(m.tracks[outer.track].tid == tid);
  CHECK(inner.parent == m.indexOf(outer));
  CHECK(inner.depth == outer.depth + 1);
  CHECK(inner.start_ns > outer.start_ns);
  CHECK(inner.end_ns() < outer.end_ns());
  CHECK(inner.dur_ns >= 1000000);  // two 1 ms sleeps inside, one before the pop
  CHECK(outer.dur_ns >= 3000000);

  auto marks = instantsNamed(m, "nvtx_mark");
  REQUIRE(marks.size() == 1);
  CHECK(m.tracks[marks[0]->track].tid == tid);
  CHECK(marks[0]->scope == 't');
  CHECK(marks[0]->ts_ns > inner.start_ns);
  CHECK(marks[0]->ts_ns < inner.end_ns());
  CHECK(eventsNamed(m, "nvtx_mark").empty());  // an instant, not a complete event
}

TEST_CASE("nvtx: a start/end range ended on another thread") {
  useCollectorInjection();
  ScratchDir dir;
  const std::string path = dir.file("cross_thread.pt.trace.json");
  REQUIRE(steplint_start(path.c_str()) == 0);
  nvtxRangeId_t id = 0;
  int64_t start_tid = 0;
  std::thread([&] {
    start_tid = osTid();
    id = nvtxRangeStartA("nvtx_cross_thread");
  }).join();
  CHECK(id != 0);
  sleepMs(2);
  int64_t end_tid = 0;
  std::thread([&] {
    end_tid = osTid();
    nvtxRangeEnd(id);
    nvtxRangeEnd(id);  // a second end of the same id records nothing more
  }).join();
  CHECK(start_tid != end_tid);
  REQUIRE(steplint_stop() == 0);

  st::TraceModel m;
  importTrace(path, m);
  const st::Event& range = only(m, "nvtx_cross_thread");
  CHECK(range.kind == st::EventKind::kUserAnnotation);
  CHECK(range.dur_ns > 0);
  CHECK(range.dur_ns >= 2000000);  // the 2 ms between start and end
}

TEST_CASE("nvtx: calls made while no session runs leave nothing in a later session") {
  useCollectorInjection();
  // Before any session: the first NVTX call loads the injection; none of this may be kept.
  CHECK(nvtxRangePushA("nvtx_before_outer") == 0);
  nvtxMarkA("nvtx_before_mark");
  CHECK(nvtxRangePop() == 0);
  nvtxRangeEnd(nvtxRangeStartA("nvtx_before_startend"));
  CHECK(nvtxRangePop() < 0);  // unbalanced pop: no crash
  nvtxRangeEnd(0);            // unknown id: no crash
  // Opened before the session, closed while it records: began outside it, so not kept.
  CHECK(nvtxRangePushA("nvtx_before_open_push") == 0);
  const nvtxRangeId_t open_id = nvtxRangeStartA("nvtx_before_open_start");

  ScratchDir dir;
  const std::string path = dir.file("idle.pt.trace.json");
  {
    // A session that starts and stops with NVTX calls around it, but none inside.
    ScratchDir first;
    REQUIRE(steplint_start(first.file("first.pt.trace.json").c_str()) == 0);
    REQUIRE(steplint_stop() == 0);
  }
  nvtxRangePushA("nvtx_between");
  nvtxMarkA("nvtx_between_mark");
  nvtxRangePop();

  REQUIRE(steplint_start(path.c_str()) == 0);
  CHECK(nvtxRangePop() == 0);
  nvtxRangeEnd(open_id);
  nvtxRangePushA("nvtx_during");  // proves the injection records in this process
  nvtxRangePop();
  REQUIRE(steplint_stop() == 0);
  nvtxRangePushA("nvtx_after");  // after the session: nowhere to go, no crash
  nvtxMarkA("nvtx_after_mark");
  nvtxRangePop();

  st::TraceModel m;
  importTrace(path, m);
  CHECK(eventsNamed(m, "nvtx_during").size() == 1);
  for (const char* name : {"nvtx_before_outer", "nvtx_before_startend", "nvtx_before_open_push",
                           "nvtx_before_open_start", "nvtx_between", "nvtx_after"}) {
    INFO(name);
    CHECK(eventsNamed(m, name).empty());
  }
  for (const char* name : {"nvtx_before_mark", "nvtx_between_mark", "nvtx_after_mark"}) {
    INFO(name);
    CHECK(instantsNamed(m, name).empty());
  }
  for (const auto& e : m.events) CHECK(e.start_ns >= 0);
}

TEST_CASE("nvtx: event attributes with an ASCII message name the range and the mark") {
  useCollectorInjection();
  ScratchDir dir;
  const std::string path = dir.file("attributes.pt.trace.json");
  REQUIRE(steplint_start(path.c_str()) == 0);
  const nvtxEventAttributes_t push_attr = asciiAttributes("nvtx_pushex_message");
  CHECK(nvtxRangePushEx(&push_attr) == 0);
  const nvtxEventAttributes_t mark_attr = asciiAttributes("nvtx_markex_message");
  nvtxMarkEx(&mark_attr);
  const nvtxEventAttributes_t start_attr = asciiAttributes("nvtx_startex_message");
  const nvtxRangeId_t id = nvtxRangeStartEx(&start_attr);
  sleepMs(1);
  nvtxRangeEnd(id);
  CHECK(nvtxRangePop() == 0);
  REQUIRE(steplint_stop() == 0);

  st::TraceModel m;
  importTrace(path, m);
  const st::Event& pushed = only(m, "nvtx_pushex_message");
  CHECK(pushed.kind == st::EventKind::kUserAnnotation);
  CHECK(pushed.dur_ns > 0);
  const st::Event& started = only(m, "nvtx_startex_message");
  CHECK(started.kind == st::EventKind::kUserAnnotation);
  CHECK(started.parent == m.indexOf(pushed));
  CHECK(instantsNamed(m, "nvtx_markex_message").size() == 1);
  CHECK(eventsNamed(m, "nvtx range").empty());  // the fallback name for undecoded messages
}
