// peekFile (trace/peek.h): what a file's first bytes say, without importing it (#14).
#include <catch2/catch.hpp>

#include <zlib.h>

#include "steplint/trace/peek.h"
#include "temp_dir.h"

using steplint::test::TempDir;
using steplint::trace::FilePeek;
using steplint::trace::peekFile;

namespace {

std::string gzip(const std::string& text) {
  std::string out(compressBound(text.size()) + 32, '\0');
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // 15 + 16: a gzip header
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

const std::string kRank2 =
    R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "A100 \"SXM\" [80GB]"}],
  "distributedInfo": {"backend": "nccl", "rank": 2, "world_size": 4}, "traceEvents": [{"ph": "X"}]})";

}  // namespace

TEST_CASE("peek: a trace's distributedInfo before its events, plain and gzip (#14)",
          "[trace][peek]") {
  TempDir dir;
  for (const bool compressed : {false, true}) {
    const std::string path =
        dir.write(compressed ? "t.json.gz" : "t.json", compressed ? gzip(kRank2) : kRank2);
    const FilePeek p = peekFile(path);
    INFO(path);
    CHECK(p.peeked);
    CHECK(p.gzip == compressed);
    CHECK(p.first_char == '{');
    CHECK(p.first_key == "schemaVersion");
    CHECK(p.trace_key_first);
    CHECK_FALSE(p.mayBeOtherJson());
    CHECK(p.distributed.present);
    CHECK(p.distributed.rank == 2);
    CHECK(p.distributed.world_size == 4);
    CHECK(p.distributed.backend == "nccl");
  }
}

TEST_CASE("peek: what the head does not hold stays unset (#14)", "[trace][peek]") {
  TempDir dir;
  // After traceEvents: not read (the events may be gigabytes).
  const FilePeek after =
      peekFile(dir.write("a.json", R"({"traceEvents": [], "distributedInfo": {"rank": 1}})"));
  CHECK(after.first_key == "traceEvents");
  CHECK_FALSE(after.distributed.present);
  // Beyond the head: a value the head cuts off is not read either.
  const FilePeek cut = peekFile(dir.write("b.json", kRank2), 40);
  CHECK(cut.first_key == "schemaVersion");
  CHECK_FALSE(cut.distributed.present);
  // The array form, another JSON document, a directory, a missing file.
  CHECK(peekFile(dir.write("c.json", "\xEF\xBB\xBF  [{\"ph\": \"X\"}]")).first_char == '[');
  const FilePeek summary = peekFile(
      dir.write("d.summary.json", R"({"attribution": {}, "schema": "steplint.summary/1"})"));
  CHECK(summary.first_key == "attribution");
  CHECK(summary.mayBeOtherJson());
  CHECK(summary.size == 51);
  CHECK_FALSE(peekFile(dir.path()).peeked);
  CHECK_FALSE(peekFile(dir.path("missing.json")).peeked);
  CHECK_FALSE(peekFile(dir.write("e.json", "")).mayBeOtherJson());
}
