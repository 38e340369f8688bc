// What a file's first bytes say about it, read without importing it: gzip or not, the first
// top-level key of a JSON object, and a trace's distributedInfo when it comes before its events
// (Kineto writes it there). The CLI sorts a folder's files with it before any import: a job's
// ranks, unrelated traces (each imported once, one by one) and rank-summary files (read as
// such, never tried as traces); docs/cli.md "A distributed job".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "steplint/trace/model.h"

namespace steplint::trace {

struct FilePeek {
  bool peeked = false;  // a regular file whose first bytes were read; pipes, FIFOs and
                        // devices are not peeked (a peek would consume a stream)
  bool gzip = false;
  char first_char = 0;    // the first character of the (decompressed) text after spaces
  std::string first_key;  // the first key when the text starts with an object
  bool trace_key_first =
      false;  // that key is one only a trace has (schemaVersion, traceEvents, ...)
  DistributedInfo distributed;  // present when read in the head, before traceEvents
  uint64_t size = 0;            // bytes on disk

  /// A plain JSON object whose first key no trace has: perhaps another document (a `steplint
  /// summary --format json` file); anything else is left to the trace importer.
  bool mayBeOtherJson() const {
    return peeked && !gzip && first_char == '{' && !first_key.empty() && !trace_key_first;
  }
};

/// Reads at most `head_bytes` of the file's (decompressed) text. Never fails: what cannot be
/// read is left unset, and the importer reports it when the file is imported.
FilePeek peekFile(const std::string& path, size_t head_bytes = size_t{64} << 10);

/// The first `max_bytes` of a regular file's (decompressed) text, read as peekFile reads it;
/// `whole` is set when that is all of it. False when the file cannot be read (corrupt gzip
/// included).
bool readTextHead(const std::string& path, size_t max_bytes, std::string& head, bool& whole);

}  // namespace steplint::trace
