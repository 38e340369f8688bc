// Writing what steplint produces (reports, summaries, baselines) without ever destroying a
// user's file: the counterpart of input_file.h, used by every command that takes -o or
// --write-baseline.
//
//   path names a regular file or nothing   a temporary file in the same directory, then
//                                          rename(): a failed or interrupted write leaves the
//                                          old file as it was, never a truncated one
//   FIFO or character device               written straight through (-o /dev/null)
//   under /dev/ or /proc/                  written straight through: /dev/stdout and
//                                          /dev/fd/N name a stream the shell already opened
//   directory                              refused
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace steplint::trace {

/// Checks before any work is done that `path` may be written: not a directory, not the same
/// file (device and inode, so other spellings and hard links count; for a path that does not
/// exist yet, the same absolute path) as any of `inputs`, and not an existing trace (gzip, a
/// trace's keys, the legacy array of events), input or not. Callers pass what a folder or glob
/// expands to among `inputs`: the check cannot see inside a folder.
/// Returns "" or one phrase without the path: "is a directory", "is the same file as the
/// input t.json (refusing to overwrite an input)", "is a trace (refusing to replace it with a
/// report)".
std::string checkOutputPath(const std::string& path, const std::vector<std::string>& inputs);

/// Writes `contents` to `path` as described above. Returns "" or one phrase without the path:
/// "cannot open for writing (No such file or directory)", "write failed (No space left on
/// device)".
std::string writeOutputFile(const std::string& path, std::string_view contents);

}  // namespace steplint::trace
