// GzipOut (trace/writers/src/gzip_out.h), the writer thread's gzip stream: igzip when
// libisal.so.2 loads, zlib otherwise. Both must give standard gzip that zlib reads back byte
// for byte, and a sync flush must make what was written so far readable while the stream is
// still open (what a crash leaves in a .partial).
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <string>

#include "collector_test_util.h"
#include "gzip_out.h"

using steplint::test::ScratchDir;
using steplint::trace::GzipOut;

namespace {

/// Kineto-like text, varied enough that compression has work to do.
std::string sampleText(size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i)
    text += "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op" + std::to_string(i % 97) +
            "\", \"ts\": " + std::to_string(1000000 + i * 37) +
            ".250, \"dur\": " + std::to_string(i % 1000) + ".000},\n";
  return text;
}

/// Everything zlib can inflate from `path`, as far as it goes.
std::string gunzip(const std::string& path) {
  gzFile in = gzopen(path.c_str(), "rb");
  REQUIRE(in != nullptr);
  std::string out;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(in, buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(n));
  gzclose(in);
  return out;
}

int openForWrite(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  return fd;
}

}  // namespace

TEST_CASE("gzip out: both backends write gzip that zlib reads back exactly") {
  const GzipOut::Backend backend = GENERATE(GzipOut::Backend::kAuto, GzipOut::Backend::kZlib);
  ScratchDir dir;
  const std::string path = dir.file("out.gz");
  const std::string text = sampleText(3 << 20);
  GzipOut out;
  REQUIRE(out.open(openForWrite(path), backend));
  const bool have_isal = dlopen("libisal.so.2", RTLD_NOW | RTLD_NOLOAD) != nullptr ||
                         dlopen("libisal.so.2", RTLD_NOW) != nullptr;
  CHECK(out.backendName() == (backend == GzipOut::Backend::kAuto && have_isal ? "igzip" : "zlib"));
  // Uneven pieces, a sync flush in the middle, an empty write.
  size_t at = 0;
  for (size_t piece : {size_t{1}, size_t{4095}, size_t{1} << 20, size_t{0}, size_t{777777}}) {
    REQUIRE(out.write(std::string_view(text).substr(at, piece)));
    at += piece;
  }
  REQUIRE(out.syncFlush());
  REQUIRE(out.write(std::string_view(text).substr(at)));
  REQUIRE(out.close());
  CHECK_FALSE(out.isOpen());
  const std::string back = gunzip(path);
  CHECK(back.size() == text.size());
  CHECK(back == text);
}

TEST_CASE("gzip out: after a sync flush the open stream already holds what was written") {
  const GzipOut::Backend backend = GENERATE(GzipOut::Backend::kAuto, GzipOut::Backend::kZlib);
  ScratchDir dir;
  const std::string path = dir.file("partial.gz");
  const std::string text = sampleText(1 << 20);
  GzipOut out;
  REQUIRE(out.open(openForWrite(path), backend));
  REQUIRE(out.write(text));
  REQUIRE(out.syncFlush());
  // Read while the stream is open, as the importer reads a crashed trainer's .partial.
  CHECK(gunzip(path) == text);
  REQUIRE(out.close());
}

TEST_CASE("gzip out: a failing write is reported with its errno") {
  GzipOut out;
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;  // no /dev/full here
  REQUIRE(out.open(fd));
  const std::string text = sampleText(4 << 20);  // more than any buffer holds
  const bool ok = out.write(text) && out.syncFlush() && out.close();
  CHECK_FALSE(ok);
  CHECK(errno == ENOSPC);
}
