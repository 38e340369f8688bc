// The status channel between the collector and `steplint record` (status_channel.h): what the
// collector reports when a trace cannot be opened or written, read back as the CLI reads it.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <string>

#include "collector_test_util.h"
#include "config.h"
#include "recorder.h"
#include "session.h"
#include "status_channel.h"

namespace sc = steplint::collector;
using steplint::test::ScratchDir;

namespace {

/// A non-blocking pipe as steplint record makes it; closes both ends and the channel at exit.
struct StatusPipe {
  int fds[2] = {-1, -1};
  StatusPipe() { REQUIRE(pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0); }
  ~StatusPipe() {
    sc::openStatusChannel("");
    close(fds[0]);
    close(fds[1]);
  }
  std::string spec() const { return sc::statusChannelSpec(fds[1]); }
  std::string drain() const {
    std::string text;
    char chunk[4096];
    for (ssize_t n = 0; (n = read(fds[0], chunk, sizeof(chunk))) > 0;)
      text.append(chunk, static_cast<size_t>(n));
    return text;
  }
};

}  // namespace

TEST_CASE("status channel: lines are parsed by kind, unknown and unfinished lines are skipped") {
  const auto messages = sc::parseStatusMessages(
      "write_failed writing the trace failed: No space left on device\n"
      "hello world\n"
      "stopped_early recording stopped at SIGTERM\n"
      "not_recording cut sh");
  REQUIRE(messages.size() == 2);
  CHECK(messages[0].kind == sc::StatusKind::kWriteFailed);
  CHECK(messages[0].text == "writing the trace failed: No space left on device");
  CHECK(messages[1].kind == sc::StatusKind::kStoppedEarly);
  CHECK(messages[1].text == "recording stopped at SIGTERM");
}

TEST_CASE("status channel: the preload's torch mismatch travels as one line") {
  StatusPipe pipe;
  sc::openStatusChannel(pipe.spec());
  sc::sendStatus(sc::StatusKind::kTorchMismatch, "the program loads torch 2.1.0\n(another line)");
  sc::openStatusChannel("");
  const auto messages = sc::parseStatusMessages(pipe.drain());
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].kind == sc::StatusKind::kTorchMismatch);
  CHECK(messages[0].text == "the program loads torch 2.1.0 (another line)");
}

TEST_CASE("status channel: a session that cannot open its output says why on the channel") {
  StatusPipe pipe;
  sc::CollectorConfig c;
  c.output_path = "/proc/steplint-test/t.json";
  c.status_channel = pipe.spec();
  REQUIRE(sc::startSession(c) == sc::StartResult::kFailed);
  const auto messages = sc::parseStatusMessages(pipe.drain());
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].kind == sc::StatusKind::kNotRecording);
  CHECK(messages[0].text ==
        "not recording: cannot open /proc/steplint-test/t.json.partial: No such file or directory");
}

TEST_CASE("status channel: nothing is written to an fd that is not the named pipe any more") {
  StatusPipe named, other;
  std::string spec = named.spec();
  // Same fd number as `other`, but the inode of `named`: as when a program closed the fd and
  // the number now belongs to something else.
  spec = std::to_string(other.fds[1]) + spec.substr(spec.find(':'));
  sc::openStatusChannel(spec);
  sc::sendStatus(sc::StatusKind::kWriteFailed, "x");
  CHECK(other.drain().empty());
  sc::openStatusChannel("12:not-a-number");
  sc::sendStatus(sc::StatusKind::kWriteFailed, "x");
  CHECK(named.drain().empty());
}

TEST_CASE("status channel: a disk that fills up while recording is reported as a write failure") {
  ScratchDir dir;
  const std::string path = dir.file("full.pt.trace.json");
  StatusPipe pipe;
  const std::string spec = pipe.spec();
  // A file size limit stands in for a full disk: with SIGXFSZ ignored, write() fails (EFBIG).
  const int rc = steplint::test::runInChild([&] {
    signal(SIGXFSZ, SIG_IGN);
    rlimit small{};
    getrlimit(RLIMIT_FSIZE, &small);
    small.rlim_cur = 64 * 1024;
    setrlimit(RLIMIT_FSIZE, &small);
    sc::CollectorConfig c;
    c.output_path = path;
    c.status_channel = spec;
    if (sc::startSession(c) != sc::StartResult::kStarted) return 10;
    for (int i = 0; i < 20000; ++i) {
      sc::HostEvent e;
      e.name = "filler";
      e.start_ns = sc::nowNs();
      e.end_ns = e.start_ns + 10;
      sc::recordHostEvent(e);
    }
    return sc::stopSession() ? 11 : 0;
  });
  CHECK(rc == 0);
  const auto messages = sc::parseStatusMessages(pipe.drain());
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].kind == sc::StatusKind::kWriteFailed);
  CHECK(messages[0].text ==
        "writing the trace failed: write to " + path + ".partial failed: File too large");
  CHECK_FALSE(steplint::test::fileExists(path));
}
