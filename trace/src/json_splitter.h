// Finds the elements of a JSON array without parsing them, 64 bytes at a time, resumably
// across buffer refills. It is the first stage of the streaming importer: the elements it
// cuts are parsed in batches (on several threads) by KinetoEventParser.
//
// Technique (as simdjson's stage 1): per 64-byte block build bitmasks of quotes, backslashes
// and brackets; drop escaped quotes (odd backslash runs); a prefix-XOR of the quote mask
// gives the in-string mask; brackets outside strings then drive a depth counter. Only the
// few bracket bits are visited one by one, so scanning runs at several GB/s.
//
// Only whole 64-byte blocks are scanned until the input is final; the last partial block is
// then copied and padded. Escaped-quote and in-string state carry across blocks and buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace steplint::trace {

class ArraySplitter {
 public:
  struct Element {
    size_t begin;  // offset of '{' (or '[') in the buffer
    size_t end;    // one past the matching closer
  };
  enum class Result { kNeedMore, kArrayEnd };

  /// Scans buf[position(), size) (whole 64-byte blocks unless `final`), appending the
  /// elements that end in it. Elements bigger than `max_element` are not reported; they are
  /// counted in skippedElements(). On kArrayEnd, arrayEnd() is the offset of the closing ']'.
  Result scan(const char* buf, size_t size, bool final, std::vector<Element>& out);

  /// Starts scanning at `pos`, just after the array's '['.
  void start(size_t pos, size_t max_element) {
    *this = ArraySplitter();
    pos_ = pos;
    gap_from_ = pos;
    max_element_ = max_element;
  }

  size_t position() const { return pos_; }
  /// The caller moved the unconsumed tail: every offset decreases by `delta`.
  void rebase(size_t delta);
  bool inElement() const { return depth_ > 0; }
  /// Offset of the open element's first byte (valid when inElement() and not skipping).
  size_t elementStart() const { return element_start_; }
  bool skipping() const { return skipping_; }
  size_t arrayEnd() const { return array_end_; }
  void setMaxElement(size_t bytes) { max_element_ = bytes; }
  uint64_t skippedElements() const { return skipped_; }
  /// Elements that are no object or array (numbers, strings, true/false/null): the bracket walk
  /// cuts none, so the bytes between elements are read for them (a few bytes per element).
  uint64_t scalarElements() const { return scalars_; }
  /// Nesting depth inside the current element (0 between elements).
  int64_t depth() const { return depth_; }

  /// The block kernels, by instruction set; every one gives the same elements. kAuto picks the
  /// fastest this CPU runs (the default); tests pick each in turn. kBaseline is SSE2 on x86-64,
  /// NEON on AArch64, portable C elsewhere; kPortable is that C everywhere (the tests'
  /// reference); kAvx2 and kAvx512 also need PCLMUL, kNeonPmull is NEON with the crypto
  /// extension's PMULL. Process-wide; false (and no change) when the CPU lacks the set.
  enum class Kernel { kAuto, kBaseline, kPortable, kAvx2, kAvx512, kNeonPmull };
  static bool useKernel(Kernel kernel);

 private:
  size_t scanBlocks(const char* p, size_t base, size_t blocks, std::vector<Element>& out,
                    bool& array_end);
  size_t scanAvx512(const char* p, size_t base, size_t blocks, std::vector<Element>& out,
                    bool& array_end);
  size_t scanAvx2(const char* p, size_t base, size_t blocks, std::vector<Element>& out,
                  bool& array_end);
  size_t scanSse2(const char* p, size_t base, size_t blocks, std::vector<Element>& out,
                  bool& array_end);
  size_t scanNeon(const char* p, size_t base, size_t blocks, std::vector<Element>& out,
                  bool& array_end);
  size_t scanNeonPmull(const char* p, size_t base, size_t blocks, std::vector<Element>& out,
                       bool& array_end);
  size_t scanScalar(const char* p, size_t base, size_t blocks, std::vector<Element>& out,
                    bool& array_end);
  bool scanBrackets(uint64_t open, uint64_t brackets, size_t base, const char* origin,
                    std::vector<Element>& out);
  /// Reads buf[gap_from_, end) between elements, counting the scalars that start in it.
  void scanGap(const char* origin, size_t end);

  size_t pos_ = 0;
  int64_t depth_ = 0;
  size_t element_start_ = 0;
  size_t array_end_ = 0;
  size_t max_element_ = SIZE_MAX;
  bool skipping_ = false;
  uint64_t skipped_ = 0;
  // The bytes between elements, read up to gap_from_; the state carries across buffers.
  size_t gap_from_ = 0;
  uint64_t scalars_ = 0;
  enum class GapState : uint8_t {
    kBetween,
    kToken,
    kString,
    kEscape
  } gap_state_ = GapState::kBetween;
  uint64_t prev_in_string_ = 0;      // all ones if the previous block ended inside a string
  uint64_t prev_odd_backslash_ = 0;  // 1 if the previous block ended in an odd backslash run
};

}  // namespace steplint::trace
