// A gzip stream written to a file descriptor, for PartialFile. The collector compresses its
// trace on the writer thread while the trainer runs, so the compressor's CPU time competes with
// the trainer wherever cores are busy (DataLoader workers, a loaded machine). ISA-L's igzip at
// level 1 compresses Kineto JSON about five times faster than zlib at level 3 with the same
// ratio (docs/benchmarks.md "Collector overhead"), so it is used when libisal.so.2 can be
// loaded at run time; zlib otherwise. ISA-L is loaded with dlopen, not linked: the collector
// goes into users' trainers, which must start where libisal is missing. Both write standard
// gzip that every reader opens, and a sync flush makes what was written so far readable after
// a crash.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace steplint::trace {

/// Writes all of `data` to `fd`, retrying short writes and EINTR; false with errno set.
/// PartialFile's plain output uses it too.
bool writeAll(int fd, const void* data, size_t size);

class GzipOut {
 public:
  enum class Backend { kAuto, kZlib };  // kZlib: tests of the fallback

  GzipOut();
  ~GzipOut();  // closes like close(), ignoring errors
  GzipOut(const GzipOut&) = delete;
  GzipOut& operator=(const GzipOut&) = delete;

  /// Takes `fd` (closed on failure too). False with errno set when no backend could start.
  bool open(int fd, Backend backend = Backend::kAuto);
  bool isOpen() const;
  /// "igzip" or "zlib" once open.
  std::string_view backendName() const;
  /// False with errno set (of the failing write where there is one).
  bool write(std::string_view data);
  bool syncFlush();
  /// Ends the stream (gzip trailer) and closes the file.
  bool close();

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace steplint::trace
