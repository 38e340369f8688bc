// Sequential byte sources for the streaming importer: an opened input (file or pipe), a
// memory block, a gzip decoder on top of either, a prefix put back in front of a source (so
// sniffing a pipe does not need a second open), and a prefetching wrapper that runs a source
// on its own thread (so inflating overlaps parsing on a 2-core machine).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "steplint/trace/input_file.h"

namespace steplint::trace {

class MappedInput;

/// Bytes of a mapped file handed out without a copy (ByteSource::readView).
struct MappedView {
  std::shared_ptr<const MappedInput> mapping;
  uint64_t offset = 0;  // of data() in the file
  size_t size = 0;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `capacity` bytes; returns 0 only at the end of the data (or after an error).
  virtual size_t read(char* dst, size_t capacity) = 0;
  /// A problem met while reading (I/O error, corrupt gzip); empty if none. The bytes
  /// delivered before it are valid.
  virtual std::string error() const = 0;
  /// Bytes consumed from the underlying input so far, and its total size if known (0 if not),
  /// for progress reporting.
  virtual uint64_t inputConsumed() const = 0;
  virtual uint64_t inputSize() const = 0;
  /// True if the bytes delivered are decompressed from a smaller input.
  virtual bool compressed() const { return false; }
  /// For a large regular file read as is: maps it (once) and hands out the last `keep` bytes
  /// delivered plus up to `want` new ones as a view into the mapping, consumed as a read()
  /// of them would be. False (nothing consumed) where that is not possible: streams, gzip,
  /// memory, small files, a failed mmap; the caller then reads a copy.
  virtual bool readView(size_t keep, size_t want, MappedView& out) {
    (void)keep;
    (void)want;
    (void)out;
    return false;
  }
};

/// Reads an input opened by InputFile::open (regular file, pipe or FIFO).
std::unique_ptr<ByteSource> openFileSource(InputFile file);
/// Delivers `prefix` (bytes already read from `inner`), then the rest of `inner`.
std::unique_ptr<ByteSource> openPrefixedSource(std::string prefix,
                                               std::unique_ptr<ByteSource> inner);
/// Reads from memory the caller keeps alive.
std::unique_ptr<ByteSource> openMemorySource(std::string_view bytes);
/// Decodes gzip members from `inner` (multi-member files included).
std::unique_ptr<ByteSource> openGzipSource(std::unique_ptr<ByteSource> inner);
/// Runs `inner` on a background thread, `depth` blocks of `block_size` bytes ahead.
std::unique_ptr<ByteSource> openPrefetchSource(std::unique_ptr<ByteSource> inner,
                                               size_t block_size = size_t{4} << 20,
                                               size_t depth = 3);

/// Fills `dst` as far as the source goes (a pipe may deliver one byte at a time); returns the
/// bytes read, fewer than `size` only at the end of the data.
size_t readFully(ByteSource& source, char* dst, size_t size);

}  // namespace steplint::trace
