// Signals, exit and fork around a running session. Children are forked processes; every wait
// has a deadline so a hang fails the test instead of blocking it.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "collector_test_util.h"
#include "config.h"
#include "recorder.h"
#include "session.h"
#include "steplint/collector.h"

namespace sc = steplint::collector;
using steplint::test::eventsNamed;
using steplint::test::ScratchDir;

namespace {

// Waits for pid up to timeout; kills it and returns false when it is still running.
bool waitWithTimeout(pid_t pid, int* status, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, status, 0);
  return false;
}

void recordOp(const char* name) {
  sc::HostEvent e;
  e.name = name;
  e.start_ns = sc::nowNs();
  e.end_ns = e.start_ns + 100;
  sc::recordHostEvent(e);
}

}  // namespace

TEST_CASE("process hooks: SIGTERM writes a complete trace, then the process dies of SIGTERM") {
  ScratchDir dir;
  const std::string path = dir.file("signal.pt.trace.json.gz");
  std::fflush(nullptr);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL);  // the trainer's own disposition (not Catch2's handler)
    sc::CollectorConfig c;
    c.output_path = path;
    if (sc::startSession(c) != sc::StartResult::kStarted) _exit(10);
    for (int i = 0; i < 100; ++i) recordOp("before_signal");
    steplint_step_begin(0);
    raise(SIGTERM);
    std::this_thread::sleep_for(std::chrono::seconds(20));  // killed before this ends
    _exit(11);
  }
  int status = 0;
  REQUIRE(waitWithTimeout(pid, &status, std::chrono::seconds(15)));
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  REQUIRE(steplint::test::fileExists(path));
  CHECK_FALSE(steplint::test::fileExists(path + ".partial"));
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  CHECK(m.stats.get(steplint::trace::Stat::json_truncated) == 0);
  CHECK(eventsNamed(m, "before_signal").size() == 100);
  CHECK_FALSE(m.metadata.trace_name.empty());
}

TEST_CASE("process hooks: a forked child records nothing, exits normally, parent trace stays valid") {
  ScratchDir dir;
  const std::string path = dir.file("fork.pt.trace.json");
  sc::CollectorConfig c;
  c.output_path = path;
  c.flush_interval_ms = 10;  // the writer thread is busy (and holds its mutexes) often
  REQUIRE(sc::startSession(c) == sc::StartResult::kStarted);
  recordOp("parent_before");
  int children_ok = 0;
  constexpr int kForks = 10;
  for (int k = 0; k < kForks; ++k) {
    for (int i = 0; i < 2000; ++i) recordOp("parent_filler");  // keep the writer draining
    std::fflush(nullptr);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      recordOp("child_event");
      uint64_t token = steplint_range_begin("child_range", 0);
      steplint_range_end(token);
      steplint_step_begin(1);
      steplint_step_end();
      const bool quiet = steplint_is_recording() == 0 && !sc::isCapturing();
      const bool refused = steplint_start(nullptr) == 2;
      std::exit(quiet && refused && steplint_stop() != 0 ? 0 : 12);  // atexit runs: must not hang
    }
    int status = 0;
    const bool exited = waitWithTimeout(pid, &status, std::chrono::seconds(10));
    if (exited && WIFEXITED(status) && WEXITSTATUS(status) == 0) ++children_ok;
  }
  CHECK(children_ok == kForks);
  recordOp("parent_after");
  REQUIRE(sc::stopSession());
  steplint::trace::TraceModel m;
  REQUIRE(steplint::test::importFile(path, m).ok());
  CHECK(m.stats.get(steplint::trace::Stat::json_truncated) == 0);
  CHECK(eventsNamed(m, "parent_before").size() == 1);
  CHECK(eventsNamed(m, "parent_after").size() == 1);
  CHECK(eventsNamed(m, "parent_filler").size() == 2000u * kForks);
  CHECK(eventsNamed(m, "child_event").empty());
  CHECK(eventsNamed(m, "child_range").empty());
}
