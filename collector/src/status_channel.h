// How the collector tells `steplint record` what a trace cannot say itself: that it could not
// be opened or written (a full disk leaves a truncated .partial, and without this the command
// could only guess at a crash), or that recording stopped while the program went on.
//
// steplint record makes a pipe, leaves its write end open (non-blocking) in the trainer and sets
// STEPLINT_STATUS_FD="<fd>:<inode>"; when the trainer has ended it reads what the pipe holds,
// without waiting for EOF (processes forked by the trainer keep the write end open). The inode
// guards against writing into someone else's file: a program that closed the fd and reused its
// number, or a descendant that got the variable but not the fd. A message is one line, one
// write() of at most PIPE_BUF bytes, so lines from several processes never interleave:
//
//   write_failed write to /runs/.steplint-Qx81ab.t.json.partial failed: No space left on device
//
// Torch-free and CUDA-free: linked by the CLI (steplint_collector_common).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace steplint::collector {

enum class StatusKind : uint8_t {
  kNotRecording,   // the session could not start (the output cannot be opened)
  kWriteFailed,    // the trace could not be written or finished (disk full, rename failed)
  kStoppedEarly,   // recording stopped while the program went on
  kTorchMismatch,  // the program loads another torch than the collector was built against (preload)
};

struct StatusMessage {
  StatusKind kind = StatusKind::kNotRecording;
  std::string text;
};

/// The STEPLINT_STATUS_FD value naming the pipe end `fd`; "" when fstat fails.
std::string statusChannelSpec(int fd);

/// Collector side: sends later messages to the channel named by `spec` (CollectorConfig::
/// status_channel); "" or a malformed spec: none.
void openStatusChannel(std::string_view spec) noexcept;
/// Sends one line when a channel is open and its fd is still that pipe; never blocks, never
/// fails the caller. Newlines in `text` become spaces.
void sendStatus(StatusKind kind, std::string_view text) noexcept;

/// CLI side: the messages in what was read from the pipe (unknown or partial lines skipped).
std::vector<StatusMessage> parseStatusMessages(std::string_view text);

}  // namespace steplint::collector
