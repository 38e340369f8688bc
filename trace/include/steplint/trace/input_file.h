// The one way steplint opens what a user names as input: a trace, a steplint.toml or
// pyproject.toml, a baseline. The path is opened once and the open descriptor decides what it
// is, so a path that changes between a check and the open cannot slip through:
//
//   regular file            read; its size is known (0 = unknown for /proc-style files)
//   pipe or FIFO            read once as a stream (`summary <(zcat t.json.gz)`, /dev/stdin);
//                           opened without blocking, then waits a bounded time for data
//   directory               "is a directory, not a trace file"
//   device, socket          "is a character device, not a trace file" (/dev/zero, /dev/tty)
//
// Each message is one phrase without the path; callers put "PATH: " in front.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace steplint::trace {

/// How long opening a pipe or FIFO waits for its first byte (or its writer's end). A FIFO
/// nobody writes to would otherwise block the open, and then the run, forever.
inline constexpr std::chrono::milliseconds kDefaultStreamWait{30'000};

struct InputOpenOptions {
  std::string_view what = "file";  // the message ends "..., not a <what>"
  std::chrono::milliseconds stream_wait = kDefaultStreamWait;
};

/// An input opened for reading. Move-only; closes its descriptor.
class InputFile {
 public:
  InputFile() = default;
  ~InputFile();
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Opens `path`. On failure the result is not open and `error` says why in one phrase:
  /// "no such file", "is a directory, not a trace file", "is a character device, not a trace
  /// file", "cannot read (Permission denied)", "no data within 30 s from the pipe or FIFO
  /// (is anything writing to it?)".
  static InputFile open(const std::string& path, std::string& error,
                        const InputOpenOptions& options = {});

  bool isOpen() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  /// Gives the descriptor to the caller, who closes it.
  int release();
  /// Bytes in a regular file with a known size; 0 for pipes, FIFOs and /proc-style files.
  uint64_t knownSize() const { return size_; }

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
};

/// Reads all of `path` into `text` when it holds at most `max_bytes`; otherwise fails with
/// "larger than N MiB, too large for a <what>" without reading the rest (a regular file's size
/// is checked before reading; a stream is read up to the limit). Returns false and sets `error`.
bool readInputFile(const std::string& path, size_t max_bytes, std::string& text, std::string& error,
                   const InputOpenOptions& options = {});

/// "64 MiB" for 64 << 20, "512 KiB", or "1000 bytes": the limits above, worded for messages.
std::string formatByteLimit(size_t bytes);

}  // namespace steplint::trace
