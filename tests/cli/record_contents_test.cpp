// record_contents.h: whether a finished trace recorded anything, read from its head when the
// head settles it (a multi-GB trace used to be imported whole only to find its first op).
#include "record_contents.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "fixtures.h"

using steplint::cli::checkRecordsAnything;

namespace {

constexpr size_t kHead = 4096;  // the check's head, small so that the files stay small

std::string scratch(const std::string& name) {
  std::filesystem::create_directories(STEPLINT_CLI_TEST_TMP);
  return std::string(STEPLINT_CLI_TEST_TMP) + "/" + std::to_string(::getpid()) + "_" + name;
}

std::string op(int ts) {
  return R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": )" +
         std::to_string(ts) + R"(, "dur": 1})";
}

std::string sample(int ts) {
  return R"j({"ph": "C", "name": "Host memory (steplint)", "pid": 1, "tid": 0, "ts": )j" +
         std::to_string(ts) + R"(, "args": {"bytes": 1048576}})";
}

// `samples` memory samples (about 100 bytes each), then `ops` ops, as the collector streams them.
std::string writeTrace(const std::string& name, int samples, int ops) {
  std::string text = R"({"schemaVersion": 1, "steplint_version": "0", "traceEvents": [)";
  for (int i = 0; i < samples + ops; ++i)
    text += (i ? ",\n" : "\n") + (i < samples ? sample(i) : op(i));
  text += "\n]}\n";
  const std::string path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("record: a trace whose head holds an op recorded something, read no further") {
  const std::string path = writeTrace("ops_first.json", 0, 500);
  REQUIRE(std::filesystem::file_size(path) > 4 * kHead);
  const auto check = checkRecordsAnything(path, kHead);
  CHECK(check.records_anything);
  CHECK_FALSE(check.read_past_head);
  // gzip: the head is decompressed text (a torch 1.13 export with its ops from the first KiB).
  const auto gz = checkRecordsAnything(
      steplint::test::testDataPath("torch113/adam_single_no_wd.json.gz"), kHead);
  CHECK(gz.records_anything);
  CHECK_FALSE(gz.read_past_head);
}

TEST_CASE("record: a small trace of nothing is settled by its head") {
  const auto check = checkRecordsAnything(writeTrace("nothing.json", 3, 0), kHead);
  CHECK_FALSE(check.records_anything);
  CHECK_FALSE(check.read_past_head);
}

TEST_CASE("record: a head without ops in a longer trace reads the rest") {
  const auto late = checkRecordsAnything(writeTrace("late_op.json", 200, 1), kHead);
  CHECK(late.records_anything);
  CHECK(late.read_past_head);
  const auto none = checkRecordsAnything(writeTrace("samples_only.json", 200, 0), kHead);
  CHECK_FALSE(none.records_anything);
  CHECK(none.read_past_head);
}

TEST_CASE("record: an unreadable trace counts as holding something (kept, and check says why)") {
  const std::string path = scratch("garbage.json");
  std::ofstream(path) << "this is no trace";
  CHECK(checkRecordsAnything(path, kHead).records_anything);
  CHECK(checkRecordsAnything(scratch("absent.json"), kHead).records_anything);
}
