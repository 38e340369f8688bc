// Inputs that are not regular files (issue 12): FIFOs with and without a writer, anonymous
// pipes (what `summary <(zcat t.json.gz)` passes), devices, directories and /proc files, as a
// trace, a config and a baseline. Each must give a clear error or a correct result, never a
// hang or an unbounded read (trace/input_file.h).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "fixtures.h"
#include "robustness_support.h"
#include "steplint/analyzer/baseline.h"
#include "steplint/analyzer/lint_config.h"
#include "steplint/rules/builtin.h"
#include "steplint/trace/importer.h"
#include "steplint/trace/input_file.h"
#include "temp_dir.h"

namespace steplint::test {
namespace {

using trace::ImportError;
using trace::ImportOptions;
using trace::ImportStatus;
using trace::TraceModel;
using Clock = std::chrono::steady_clock;

const std::string kTiny = testDataPath("cli/tiny_steps.json");
const std::string kGzipped = testDataPath("gpu/fast_trainer_marked.pt.trace.json.gz");

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void writeAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return;  // the reader gave up (EPIPE): the test's own checks say why
    done += static_cast<size_t>(n);
  }
}

/// An anonymous pipe fed by a thread, named the way a shell names `<(...)`: /dev/fd/N.
class FedPipe {
 public:
  explicit FedPipe(std::string bytes) {
    // A reader that stops at its limit closes the pipe under the writer: EPIPE, not a signal.
    std::signal(SIGPIPE, SIG_IGN);
    REQUIRE(::pipe(fds_) == 0);
    writer_ = std::thread([this, bytes = std::move(bytes)] {
      writeAll(fds_[1], bytes);
      ::close(fds_[1]);
    });
  }
  ~FedPipe() {
    ::close(fds_[0]);  // unblocks a writer whose reader stopped early
    writer_.join();
  }
  std::string path() const { return "/dev/fd/" + std::to_string(fds_[0]); }

 private:
  int fds_[2] = {-1, -1};
  std::thread writer_;
};

size_t importedEvents(const std::string& path) {
  TraceModel model;
  const ImportStatus status = trace::importTraceFile(path, model);
  INFO(status.message);
  REQUIRE(status.ok());
  return model.events.size();
}

}  // namespace

TEST_CASE("special files: a trace through an anonymous pipe, plain and gzip",
          "[robustness][special]") {
  for (const std::string& file : {kTiny, kGzipped}) {
    CAPTURE(file);
    const size_t expected = importedEvents(file);
    REQUIRE(expected > 0);
    FedPipe pipe(readFileBytes(file));  // the .gz is 230 KB: more than a pipe buffer holds
    CHECK(importedEvents(pipe.path()) == expected);
  }
}

TEST_CASE("special files: a FIFO with a writer is read once as a stream", "[robustness][special]") {
  TempDir dir;
  const std::string fifo = dir.path("trace.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string bytes = readFileBytes(kTiny);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);  // waits for the importer to open it
    if (fd < 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the reader waits, not fails
    writeAll(fd, bytes);
    ::close(fd);
  });
  const size_t events = importedEvents(fifo);
  writer.join();
  CHECK(events == importedEvents(kTiny));
}

TEST_CASE("special files: a FIFO nobody writes to fails after the wait, not never",
          "[robustness][special]") {
  TempDir dir;
  const std::string fifo = dir.path("silent.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  ImportOptions options;
  options.stream_wait = std::chrono::milliseconds(200);
  TraceModel model;
  const auto start = Clock::now();
  const ImportStatus status = trace::importTraceFile(fifo, model, options);
  CHECK(secondsSince(start) < 5.0);
  CHECK(status.error == ImportError::kIo);
  CHECK(status.message ==
        fifo + ": no data within 200 ms from the pipe or FIFO (is anything writing to it?)");

  std::string text, error;
  trace::InputOpenOptions input;
  input.stream_wait = std::chrono::milliseconds(200);
  CHECK_FALSE(trace::readInputFile(fifo, 1 << 20, text, error, input));
  CHECK(error.rfind("no data within 200 ms", 0) == 0);
}

TEST_CASE("special files: devices and directories are refused by name, without reading",
          "[robustness][special]") {
  TempDir dir;
  const struct {
    std::string path, kind;
  } cases[] = {{"/dev/null", "a character device"},
               {"/dev/zero", "a character device"},
               {dir.path(), "a directory"}};
  for (const auto& c : cases) {
    CAPTURE(c.path);
    TraceModel model;
    const auto start = Clock::now();
    const ImportStatus status = trace::importTraceFile(c.path, model);
    CHECK(secondsSince(start) < 5.0);
    CHECK(status.error == ImportError::kIo);
    CHECK(status.message == c.path + ": is " + c.kind + ", not a trace file");
  }
}

TEST_CASE("special files: /proc files report size 0 yet are read to the end",
          "[robustness][special]") {
  std::string text, error;
  REQUIRE(trace::readInputFile("/proc/self/status", 1 << 20, text, error));
  CHECK(text.find("Pid:") != std::string::npos);

  TraceModel model;
  const ImportStatus status = trace::importTraceFile("/proc/self/status", model);
  CHECK(status.error == ImportError::kNotATrace);
  CHECK(status.message ==
        "/proc/self/status: not a trace (does not start with a JSON object or array)");
}

TEST_CASE("special files: readInputFile stops at the limit on files and streams",
          "[robustness][special]") {
  std::string text, error;
  trace::InputOpenOptions input;
  input.what = "config file";
  FedPipe endless(
      std::string(size_t{8} << 20, 'x'));  // 8 MiB through a pipe, read at most 4 MiB + 1
  CHECK_FALSE(trace::readInputFile(endless.path(), size_t{4} << 20, text, error, input));
  CHECK(error == "larger than 4 MiB, too large for a config file");
  CHECK(text.empty());

  FedPipe exact(std::string(1000, 'x'));
  CHECK(trace::readInputFile(exact.path(), 1000, text, error));
  CHECK(text.size() == 1000);
}

TEST_CASE("special files: configs from devices, pipes, /proc and oversized files",
          "[robustness][special][config]") {
  analyzer::RuleRegistry registry;
  rules::registerBuiltinRules(registry);
  const auto load = [&](const std::string& path) {
    analyzer::LintConfig config;
    return analyzer::loadLintConfig(path, registry, config);
  };
  auto errors = load("/dev/zero");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == "is a character device, not a config file");

  TempDir dir;
  errors = load(dir.path());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == "is a directory, not a config file");

  // A config may come from a pipe (`--config <(generate)`): read it, do not refuse it.
  FedPipe pipe("[lint]\nfail-on = \"error\"\n");
  analyzer::LintConfig piped;
  CHECK(analyzer::loadLintConfig(pipe.path(), registry, piped).empty());
  CHECK(piped.fail_on == analyzer::Severity::kError);

  errors = load("/proc/self/status");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.rfind("TOML syntax error", 0) == 0);

  const std::string big =
      dir.write("steplint.toml", "[lint]\n# " + std::string(size_t{5} << 20, 'x') + "\n");
  const auto start = Clock::now();
  errors = load(big);
  CHECK(secondsSince(start) < 5.0);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == "larger than 4 MiB, too large for a config file");
}

TEST_CASE("special files: baselines from devices and oversized files",
          "[robustness][special][baseline]") {
  analyzer::Baseline baseline;
  CHECK(analyzer::loadBaseline("/dev/zero", baseline) ==
        "is a character device, not a baseline file");
  CHECK(analyzer::loadBaseline("/dev/null", baseline) ==
        "is a character device, not a baseline file");

  // A sparse 65 MiB file: refused from its size, so the test reads (and writes) nothing.
  TempDir dir;
  const std::string huge = dir.path("huge-baseline.json");
  const int fd = ::open(huge.c_str(), O_CREAT | O_WRONLY, 0600);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, off_t{65} << 20) == 0);
  ::close(fd);
  const auto start = Clock::now();
  CHECK(analyzer::loadBaseline(huge, baseline) ==
        "larger than 64 MiB, too large for a baseline file");
  CHECK(secondsSince(start) < 1.0);

  FedPipe pipe(R"({"schema": "steplint.baseline/1", "fingerprints": ["SL101:x"]})");
  CHECK(analyzer::loadBaseline(pipe.path(), baseline).empty());
  CHECK(baseline.contains("SL101:x"));
}

}  // namespace steplint::test
