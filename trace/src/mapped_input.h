// A regular trace file mapped read-only, so the importer splits and parses the page cache in
// place instead of copying the file with read() first (that copy, and zeroing the pages it
// copied into, were ~8 % of a plain import's CPU time, all on the reader thread:
// docs/benchmarks.md "Import scaling").
//
// What a mapping needs that read() does not:
//  - Pages already parsed are dropped (release), or the whole file would stay in the process's
//    resident memory.
//  - A file truncated by another program while it is mapped raises SIGBUS on the lost pages.
//    A SIGBUS handler maps zero pages over the rest of the mapping from the faulting page on
//    and marks the input as shrunk: the import then ends as a truncated file does (the events
//    after that point lost, counted and reported), never with a crash. Faults elsewhere go to
//    the handler that was installed before (or the default action).
// The file's last byte is followed by kPadding readable bytes (zeros), as simdjson-style
// parsers need. The kernel behaviour this relies on: docs/reference/toolchain.md §11.1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace steplint::trace {

class MappedInput {
 public:
  static constexpr size_t kPadding = 64;

  /// Maps the first `size` bytes of `fd`; nullptr when it cannot (the caller reads instead):
  /// mmap failed, or too many mappings are alive for the SIGBUS guard to track.
  static std::shared_ptr<MappedInput> map(int fd, uint64_t size);
  ~MappedInput();
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;

  const char* data() const { return base_; }
  uint64_t size() const { return size_; }
  /// Drops the resident pages that lie wholly inside [begin, end) (byte offsets). Reading them
  /// again stays valid (the kernel reads them back from the file).
  void release(uint64_t begin, uint64_t end) const;
  /// True once a read met the end of a file that shrank after it was mapped: the bytes from
  /// that page on read as zeros.
  bool shrank() const;

 private:
  MappedInput(char* base, uint64_t size, size_t span, int slot)
      : base_(base), size_(size), span_(span), slot_(slot) {}

  char* base_;
  uint64_t size_;
  size_t span_;  // bytes reserved: the file rounded up to pages, plus the padding
  int slot_;     // the SIGBUS guard's entry
};

}  // namespace steplint::trace
