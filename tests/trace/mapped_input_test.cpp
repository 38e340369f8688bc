// A plain trace file is parsed in place from a mapping (trace/src/mapped_input.h): the same
// model as reading it, its pages given back as it goes, and a file that shrinks meanwhile ends
// the import as a truncated file does instead of killing the process with SIGBUS.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "mapped_input.h"
#include "steplint/trace/importer.h"

namespace fs = std::filesystem;
using steplint::trace::MappedInput;
using steplint::trace::Stat;

namespace {

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/steplint_mapped_XXXXXX";
    const int fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    ::close(fd);
    path = name;
  }
  ~TempFile() { fs::remove(path); }
};

// `count` complete events on one thread, ~100 bytes each, pretty-printed as Kineto writes them.
std::string traceText(int count) {
  std::string text = "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n";
  for (int i = 0; i < count; ++i) {
    if (i > 0) text += ",\n";
    text += "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op" + std::to_string(i % 7) +
            "\", \"pid\": 1, \"tid\": 2, \"ts\": " + std::to_string(i * 10) + ", \"dur\": 5}";
  }
  return text + "\n  ]\n}\n";
}

std::shared_ptr<MappedInput> mapWhole(const TempFile& file, size_t size) {
  const int fd = ::open(file.path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  auto mapped = MappedInput::map(fd, size);
  ::close(fd);  // the mapping keeps the file
  REQUIRE(mapped);
  return mapped;
}

int64_t totalDuration(const steplint::trace::TraceModel& m) {
  int64_t sum = 0;
  for (const auto& e : m.events) sum += e.dur_ns;
  return sum;
}

}  // namespace

TEST_CASE("A mapped file reads as its bytes, with zero padding after the last one") {
  const std::string text(3 * 4096 + 100, 'x');
  TempFile file(text);
  auto mapped = mapWhole(file, text.size());
  CHECK(std::string(mapped->data(), mapped->size()) == text);
  for (size_t i = 0; i < MappedInput::kPadding; ++i) CHECK(mapped->data()[text.size() + i] == 0);
  mapped->release(0, text.size());  // pages given back are read again from the file
  CHECK(std::string(mapped->data(), mapped->size()) == text);
  CHECK_FALSE(mapped->shrank());
}

TEST_CASE("A file truncated while mapped reads as zeros from the lost page on, not SIGBUS") {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const std::string text(4 * page, 'y');
  TempFile file(text);
  auto mapped = mapWhole(file, text.size());
  CHECK(mapped->data()[0] == 'y');
  fs::resize_file(file.path, page + 10);
  mapped->release(0, text.size());  // as the importer would, so every page is read afresh
  CHECK(mapped->data()[page + 5] == 'y');
  CHECK(mapped->data()[page + 10] == 0);  // past the end in the last page: zeros, no fault
  CHECK_FALSE(mapped->shrank());
  CHECK(mapped->data()[3 * page] == 0);  // a lost page: SIGBUS, handled
  CHECK(mapped->shrank());
  CHECK(mapped->data()[page + 5] == 'y');  // the pages before it are untouched
}

TEST_CASE("A bus error outside steplint's mappings still ends the process") {
  // The guard handles only its own mappings; another one's lost page must not be retried
  // forever (or swallowed). The child runs under alarm() so a loop fails the test, not hangs it.
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  TempFile ours(std::string(2 * page, 'a')), theirs(std::string(2 * page, 'b'));
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::alarm(10);
    const int quiet = ::open("/dev/null", O_WRONLY);  // the test framework's report of the fault
    ::dup2(quiet, 1);
    ::dup2(quiet, 2);
    const int fd = ::open(ours.path.c_str(), O_RDONLY);
    auto mapped = MappedInput::map(fd, 2 * page);  // installs the guard
    const int other = ::open(theirs.path.c_str(), O_RDWR);
    auto* bytes =
        static_cast<volatile char*>(::mmap(nullptr, 2 * page, PROT_READ, MAP_SHARED, other, 0));
    if (!mapped || bytes == MAP_FAILED || ::ftruncate(other, 0) != 0) ::_exit(93);
    const char c = bytes[page];  // SIGBUS
    ::_exit(c == 0 ? 94 : 95);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  // Ended by the fault: killed by SIGBUS, or by whatever the handler before ours does with it
  // (Catch2 and the sanitizers report it, then abort or exit non-zero). Not by the alarm (a
  // retry loop), and not by one of the child's own exits (the fault swallowed).
  if (WIFSIGNALED(status)) {
    CHECK(WTERMSIG(status) != SIGALRM);
  } else {
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) != 0);
    CHECK((WEXITSTATUS(status) < 93 || WEXITSTATUS(status) > 95));
  }
}

TEST_CASE("A plain trace file imported from its mapping gives the model its bytes give") {
  const int count = 120'000;  // ~12 MB: several 8 MiB views, kept bytes carried between them
  const std::string text = traceText(count);
  REQUIRE(text.size() > size_t{10} << 20);
  TempFile file(text);
  for (int threads : {1, 2}) {
    steplint::trace::ImportOptions options;
    options.threads = threads;
    steplint::trace::TraceModel from_file, from_bytes;
    REQUIRE(steplint::trace::importTraceFile(file.path.string(), from_file, options).ok());
    REQUIRE(steplint::trace::importTraceBytes(text, from_bytes, options, "t.json").ok());
    REQUIRE(from_file.events.size() == static_cast<size_t>(count));
    CHECK(from_bytes.events.size() == from_file.events.size());
    CHECK(totalDuration(from_file) == int64_t{count} * 5000);
    CHECK(from_file.events.back().start_ns == int64_t{count - 1} * 10'000);
    CHECK(from_file.metadata.input_bytes == text.size());
    CHECK(steplint::trace::importStatLines(from_file.stats).empty());
  }
}

TEST_CASE("A trace file truncated by another program during the import ends as a truncated one") {
  const int count = 200'000;  // ~20 MB, so the import is still reading when the cut happens
  const std::string text = traceText(count);
  TempFile file(text);
  steplint::trace::ImportOptions options;
  bool cut = false;
  options.progress = [&](double) {
    if (cut) return;
    cut = true;
    fs::resize_file(file.path, text.size() / 2);
  };
  steplint::trace::TraceModel m;
  const auto status = steplint::trace::importTraceFile(file.path.string(), m, options);
  REQUIRE(cut);
  CHECK(status.ok());
  CHECK(m.stats.get(Stat::input_read_error) == 1);
  CHECK(m.stats.get(Stat::json_truncated) == 1);
  // The events wholly before the cut, at most (a later view may have been cut off sooner).
  const std::string kept = text.substr(0, text.size() / 2);
  size_t whole = 0;
  for (size_t at = kept.find('}'); at != std::string::npos; at = kept.find('}', at + 1)) ++whole;
  CHECK(m.events.size() > 0);
  CHECK(m.events.size() <= whole);
  CHECK(whole < static_cast<size_t>(count));
}
