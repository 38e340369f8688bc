// Where the trace generator's text goes: a file or stdout, plain or gzip.
//
// The generator produces one step at a time and hands each step's text here, so memory
// stays at one step plus the compression buffers however large the file grows.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace steplint::bench {

class OutputSink {
 public:
  OutputSink();
  ~OutputSink();
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  /// Opens `path` ("-" = stdout). `gzip_level` < 0 writes plain text, 0..9 a gzip stream.
  /// Returns false and fills `error` on failure.
  bool open(const std::string& path, int gzip_level, std::string& error);
  /// Appends bytes; returns false once a write has failed (the error is kept).
  bool write(std::string_view bytes);
  /// Flushes and closes; returns false if anything failed since open().
  bool close(std::string& error);

  /// Uncompressed bytes accepted so far (what --target-bytes counts).
  uint64_t bytesIn() const { return bytes_in_; }
  /// Bytes that reached the file (compressed size for gzip).
  uint64_t bytesOut() const { return bytes_out_; }

 private:
  bool writeRaw(const char* data, size_t size);
  bool deflateChunk(const char* data, size_t size, bool finish);

  struct Deflater;  // zlib state, only allocated for gzip output
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::unique_ptr<Deflater> deflater_;
  uint64_t bytes_in_ = 0;
  uint64_t bytes_out_ = 0;
  std::string error_;
};

}  // namespace steplint::bench
