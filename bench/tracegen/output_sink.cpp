#include "tracegen/output_sink.h"

#include <cerrno>
#include <cstring>
#include <vector>

#include <zlib.h>

namespace steplint::bench {
namespace {
// Large writes keep syscall overhead negligible at several hundred MB/s.
constexpr size_t kOutChunk = size_t{1} << 20;
}  // namespace

struct OutputSink::Deflater {
  z_stream stream{};
  std::vector<unsigned char> out = std::vector<unsigned char>(kOutChunk);
};

OutputSink::OutputSink() = default;

OutputSink::~OutputSink() {
  std::string ignored;
  if (file_ != nullptr) close(ignored);
}

bool OutputSink::open(const std::string& path, int gzip_level, std::string& error) {
  if (path == "-") {
    file_ = stdout;
    owns_file_ = false;
  } else {
    file_ = std::fopen(path.c_str(), "wb");
    owns_file_ = true;
    if (file_ == nullptr) {
      error = path + ": " + std::strerror(errno);
      return false;
    }
  }
  if (gzip_level >= 0) {
    deflater_ = std::make_unique<Deflater>();
    // windowBits 15 + 16 = a gzip header and trailer instead of a zlib one.
    if (deflateInit2(&deflater_->stream, gzip_level > 9 ? 9 : gzip_level, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
      error = "deflateInit2 failed";
      return false;
    }
  }
  bytes_in_ = bytes_out_ = 0;
  error_.clear();
  return true;
}

bool OutputSink::writeRaw(const char* data, size_t size) {
  if (!error_.empty()) return false;
  if (std::fwrite(data, 1, size, file_) != size) {
    error_ = std::string("write failed: ") + std::strerror(errno);
    return false;
  }
  bytes_out_ += size;
  return true;
}

bool OutputSink::deflateChunk(const char* data, size_t size, bool finish) {
  z_stream& zs = deflater_->stream;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  zs.avail_in = static_cast<uInt>(size);
  int rc = Z_OK;
  do {
    zs.next_out = deflater_->out.data();
    zs.avail_out = static_cast<uInt>(deflater_->out.size());
    rc = deflate(&zs, finish ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_ERROR) {
      error_ = "deflate failed";
      return false;
    }
    size_t produced = deflater_->out.size() - zs.avail_out;
    if (produced > 0 && !writeRaw(reinterpret_cast<const char*>(deflater_->out.data()), produced))
      return false;
  } while (zs.avail_out == 0 || (finish && rc != Z_STREAM_END));
  return true;
}

bool OutputSink::write(std::string_view bytes) {
  bytes_in_ += bytes.size();
  if (!deflater_) return writeRaw(bytes.data(), bytes.size());
  // zlib counts in uInt; feed at most 1 GiB per call.
  while (!bytes.empty()) {
    size_t n = bytes.size() < (size_t{1} << 30) ? bytes.size() : (size_t{1} << 30);
    if (!deflateChunk(bytes.data(), n, false)) return false;
    bytes.remove_prefix(n);
  }
  return true;
}

bool OutputSink::close(std::string& error) {
  if (file_ == nullptr) return error_.empty();
  if (deflater_) {
    deflateChunk(nullptr, 0, true);
    deflateEnd(&deflater_->stream);
    deflater_.reset();
  }
  if (std::fflush(file_) != 0 && error_.empty())
    error_ = std::string("flush failed: ") + std::strerror(errno);
  if (owns_file_ && std::fclose(file_) != 0 && error_.empty()) {
    error_ = std::string("close failed: ") + std::strerror(errno);
  }
  file_ = nullptr;
  error = error_;
  return error_.empty();
}

}  // namespace steplint::bench
