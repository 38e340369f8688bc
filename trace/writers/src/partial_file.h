// The file a trace is written to: "<path>.partial" (plain or gzip) until finish() renames it to
// <path>. Shared by the streaming writer and appendTraceMetadata (kineto_writer.h).
//
// It only ever writes to a regular file: a FIFO at the .partial path would block the trainer
// in open(), a device node would be written to, and rename() would replace a device node or an
// empty directory at <path> (as root, STEPLINT_OUTPUT=/dev/null would delete /dev/null). The
// first write error is kept with its errno, because by close() errno says something else and
// "disk full" must reach the user as such.
#pragma once

#include <string>
#include <string_view>

#include "gzip_out.h"

namespace steplint::trace {

class PartialFile {
 public:
  PartialFile() = default;
  ~PartialFile();  // closes and keeps the .partial (a crash-like end: the importer repairs it)
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;

  /// Creates or truncates "<path>.partial", gzip-compressed when `gzip`, and holds an exclusive
  /// flock on it until it is closed. False + *error when <path> or the .partial exist and are
  /// not regular files, when another process holds the .partial (inUse()), or the file cannot
  /// be opened.
  bool open(const std::string& path, bool gzip, std::string* error);
  /// The last open() failed because another live process is writing the same .partial.
  bool inUse() const { return in_use_; }
  bool isOpen() const { return fd_ >= 0 || gz_.isOpen(); }
  /// Appends; after the first failure everything is dropped (the trace is already lost).
  void write(std::string_view data);
  /// gzip: Z_SYNC_FLUSH, so what was written so far can be decompressed after a crash.
  void syncFlush();
  /// Closes and renames the .partial to <path>. False + *error (the first write error first).
  bool finish(std::string* error);
  /// Closes without renaming.
  void abandon();
  /// "" while every write succeeded, else the first failure ("No space left on device").
  const std::string& writeError() const { return write_error_; }
  const std::string& partialPath() const { return partial_path_; }

 private:
  void fail(int error_number);
  bool close();

  std::string path_;
  std::string partial_path_;
  // Plain output uses a raw fd, not FILE*: a forked child's exit() flushes every FILE* it
  // inherited, which would write the parent's buffered bytes into the trace a second time.
  int fd_ = -1;
  GzipOut gz_;  // gzip output (igzip or zlib, gzip_out.h); owns its fd
  std::string write_error_;
  bool in_use_ = false;
};

/// "" when nothing exists at `path` or it is a regular file (or a link to one); else why
/// steplint will not write there ("exists and is not a regular file").
std::string notRegularFileProblem(const std::string& path);

}  // namespace steplint::trace
