// Outputs never destroy a user's file (issue 12, trace/output_file.h): a regular file is
// replaced through a temporary file and rename(), so a failed write leaves it as it was;
// devices and FIFOs are written straight through; an output that is one of the inputs is
// refused before anything is written.
#include "steplint/trace/output_file.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "robustness_support.h"
#include "temp_dir.h"

namespace steplint::test {
namespace {

mode_t modeOf(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

size_t entriesIn(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// Makes writes past `bytes` fail with EFBIG (SIGXFSZ ignored) while alive: a disk that fills up
// in the middle of a report, without needing a full disk.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit saved_{};
  void (*old_handler_)(int) = nullptr;
};

}  // namespace

TEST_CASE("output file: a failed write leaves the old file whole", "[robustness][output]") {
  TempDir dir;
  const std::string path = dir.write("report.txt", "the old report\n");
  std::string problem;
  {
    FileSizeLimit limit(4096);
    problem = trace::writeOutputFile(path, std::string(size_t{1} << 20, 'x'));
  }
  CHECK(problem == "write failed (File too large)");
  CHECK(readFileBytes(path) == "the old report\n");
  CHECK(entriesIn(dir.path()) == 1);  // no temporary file left behind
}

TEST_CASE("output file: replacing keeps the mode and a symlink, a new file follows umask",
          "[robustness][output]") {
  TempDir dir;
  const std::string kept = dir.write("kept.txt", "old");
  REQUIRE(::chmod(kept.c_str(), 0640) == 0);
  CHECK(trace::writeOutputFile(kept, "new").empty());
  CHECK(readFileBytes(kept) == "new");
  CHECK(modeOf(kept) == 0640);

  const std::string link = dir.path("link.txt");
  REQUIRE(::symlink(kept.c_str(), link.c_str()) == 0);
  CHECK(trace::writeOutputFile(link, "through the link").empty());
  CHECK(std::filesystem::is_symlink(link));
  CHECK(readFileBytes(kept) == "through the link");

  const mode_t saved = ::umask(027);
  const std::string fresh = dir.path("fresh.txt");
  const std::string problem = trace::writeOutputFile(fresh, "fresh");
  ::umask(saved);
  CHECK(problem.empty());
  CHECK(modeOf(fresh) == 0640);
  CHECK(entriesIn(dir.path()) == 3);
}

TEST_CASE("output file: devices and FIFOs are written straight through", "[robustness][output]") {
  CHECK(trace::writeOutputFile("/dev/null", "discarded").empty());
  CHECK(trace::writeOutputFile("/dev/full", "x") == "write failed (No space left on device)");
  CHECK(trace::writeOutputFile("/dev/no-such-device", "x") ==
        "cannot open for writing (No such file or directory)");

  TempDir dir;
  const std::string fifo = dir.path("out.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = readFileBytes(fifo); });
  CHECK(trace::writeOutputFile(fifo, "through the fifo").empty());
  reader.join();
  CHECK(received == "through the fifo");
  CHECK(std::filesystem::is_fifo(fifo));
}

TEST_CASE("output file: directories and missing directories are errors", "[robustness][output]") {
  TempDir dir;
  CHECK(trace::writeOutputFile(dir.path(), "x") == "is a directory");
  CHECK(trace::writeOutputFile(dir.path("no/such/dir/out.txt"), "x") ==
        "cannot open for writing (No such file or directory)");
  CHECK(trace::checkOutputPath(dir.path(), {}) == "is a directory");
}

TEST_CASE("output file: an output that is an input is refused, whatever its spelling",
          "[robustness][output]") {
  TempDir dir;
  const std::string input = dir.write("t.json", "{}");
  const std::string other = dir.write("other.json", "{}");
  const std::string hard_link = dir.path("hard.json");
  REQUIRE(::link(input.c_str(), hard_link.c_str()) == 0);
  const std::string refusal =
      "is the same file as the input " + input + " (refusing to overwrite an input)";
  CHECK(trace::checkOutputPath(input, {other, input}) == refusal);
  CHECK(trace::checkOutputPath(dir.path("./t.json"), {input}) == refusal);
  CHECK(trace::checkOutputPath(hard_link, {input}) == refusal);
  CHECK(trace::checkOutputPath(other, {input}).empty());
  CHECK(trace::checkOutputPath(dir.path("new.json"), {input}).empty());
  CHECK(trace::checkOutputPath("/dev/null", {input, "/dev/null"}).empty());
}

TEST_CASE("output file: an existing trace is never replaced, an earlier report is",
          "[robustness][output]") {
  // `diff a.json b.json -o c.json` with c.json a third trace, or a rank of a job whose folder
  // was not an input, replaced the recording with a report.
  TempDir dir;
  const std::string refusal = "is a trace (refusing to replace it)";
  const std::string kineto =
      dir.write("rank1.pt.trace.json", R"({"schemaVersion": 1, "traceEvents": [{"ph": "X"}]})");
  CHECK(trace::checkOutputPath(kineto, {}) == refusal);
  // Metadata first, its events later: the key still tells.
  CHECK(trace::checkOutputPath(dir.write("late.json", R"({"trace_id": "x", "traceEvents": []})"),
                               {}) == refusal);
  CHECK(trace::checkOutputPath(
            dir.write("legacy.json",
                      R"([{"name": "aten::mm", "ph": "X", "ts": 1, "dur": 2, "tid": 1}])"),
            {}) == refusal);
  const std::string gz = dir.write("t.json.gz", std::string("\x1f\x8b\x08\x00", 4) + "data");
  CHECK(trace::checkOutputPath(gz, {}) == refusal);
  // Reports steplint wrote before are replaced: one summary, several, a check report, text.
  CHECK(trace::checkOutputPath(
            dir.write("summary.json", R"({"schema": "steplint.summary/1", "steps": []})"), {})
            .empty());
  CHECK(trace::checkOutputPath(
            dir.write("summaries.json", R"([{"schema": "steplint.summary/1", "name": "ph"}])"), {})
            .empty());
  CHECK(trace::checkOutputPath(dir.write("report.txt", "SL101 [warning] \"ph\": x"), {}).empty());
  CHECK(trace::checkOutputPath(dir.write("empty.json", ""), {}).empty());
}

}  // namespace steplint::test
