#include "json_splitter.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace steplint::trace {
namespace {

struct BlockMasks {
  uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

#if defined(__x86_64__)
// AVX2 variant, chosen at run time: the splitter is the one stage the importer's main thread
// runs over every byte, so it pays to classify 32 bytes per instruction.
__attribute__((target("avx2"))) inline uint64_t eqMaskAvx2(__m256i a, __m256i b, char c) {
  const __m256i n = _mm256_set1_epi8(c);
  const auto m0 = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, n)));
  const auto m1 = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, n)));
  return static_cast<uint64_t>(m0) | static_cast<uint64_t>(m1) << 32;
}

__attribute__((target("avx2"))) BlockMasks classifyAvx2(const char* p) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const __m256i bit20 = _mm256_set1_epi8(0x20);
  const __m256i lo_l = _mm256_or_si256(lo, bit20), hi_l = _mm256_or_si256(hi, bit20);
  BlockMasks m;
  m.quote = eqMaskAvx2(lo, hi, '"');
  m.backslash = eqMaskAvx2(lo, hi, '\\');
  m.open = eqMaskAvx2(lo_l, hi_l, '{');
  m.close = eqMaskAvx2(lo_l, hi_l, '}');
  return m;
}

inline uint64_t eqMask(const __m128i v[4], __m128i needle) {
  uint64_t m = 0;
  for (int i = 0; i < 4; ++i)
    m |= static_cast<uint64_t>(
             static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v[i], needle))))
         << (16 * i);
  return m;
}
BlockMasks classifySse2(const char* p) {
  __m128i v[4], lower[4];
  const __m128i bit20 = _mm_set1_epi8(0x20);
  for (int i = 0; i < 4; ++i) {
    v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    lower[i] = _mm_or_si128(v[i], bit20);  // '[' | 0x20 == '{', ']' | 0x20 == '}'
  }
  BlockMasks m;
  m.quote = eqMask(v, _mm_set1_epi8('"'));
  m.backslash = eqMask(v, _mm_set1_epi8('\\'));
  m.open = eqMask(lower, _mm_set1_epi8('{'));
  m.close = eqMask(lower, _mm_set1_epi8('}'));
  return m;
}

using ClassifyFn = BlockMasks (*)(const char*);
ClassifyFn pickClassify() {
  __builtin_cpu_init();  // required before __builtin_cpu_supports in static initialisation
  return __builtin_cpu_supports("avx2") ? classifyAvx2 : classifySse2;
}
const ClassifyFn classify = pickClassify();
#else
BlockMasks classify(const char* p) {
  BlockMasks m;
  for (int i = 0; i < 64; ++i) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    const uint64_t bit = uint64_t{1} << i;
    if (c == '"') m.quote |= bit;
    if (c == '\\') m.backslash |= bit;
    if ((c | 0x20) == '{') m.open |= bit;
    if ((c | 0x20) == '}') m.close |= bit;
  }
  return m;
}
#endif

// Positions escaped by an odd-length backslash run (simdjson's find_odd_backslash_sequences).
uint64_t escapedChars(uint64_t bs, uint64_t& prev_odd) {
  constexpr uint64_t kEven = 0x5555555555555555ull;
  constexpr uint64_t kOdd = ~kEven;
  const uint64_t start_edges = bs & ~(bs << 1);
  const uint64_t even_start_mask = kEven ^ prev_odd;
  const uint64_t even_starts = start_edges & even_start_mask;
  const uint64_t odd_starts = start_edges & ~even_start_mask;
  const uint64_t even_carries = bs + even_starts;
  uint64_t odd_carries = bs + odd_starts;
  const bool ends_odd = odd_carries < bs;  // carry out of bit 63
  odd_carries |= prev_odd;
  prev_odd = ends_odd ? 1 : 0;
  const uint64_t even_carry_ends = even_carries & ~bs;
  const uint64_t odd_carry_ends = odd_carries & ~bs;
  return (even_carry_ends & kOdd) | (odd_carry_ends & kEven);
}

inline uint64_t prefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace

void ArraySplitter::scanBlock(const char* block, size_t base, std::vector<Element>& out,
                              bool& array_end) {
  const BlockMasks m = classify(block);
  const uint64_t escaped = escapedChars(m.backslash, prev_odd_backslash_);
  const uint64_t quotes = m.quote & ~escaped;
  const uint64_t in_string = prefixXor(quotes) ^ prev_in_string_;
  prev_in_string_ = static_cast<uint64_t>(static_cast<int64_t>(in_string) >> 63);
  uint64_t brackets = (m.open | m.close) & ~in_string;
  while (brackets) {
    const int i = __builtin_ctzll(brackets);
    brackets &= brackets - 1;
    const size_t at = base + static_cast<size_t>(i);
    if (m.open >> i & 1) {
      if (depth_++ == 0) {
        element_start_ = at;
        skipping_ = false;
      }
      continue;
    }
    if (depth_ == 0) {  // the array's own closing bracket
      array_end_ = at;
      array_end = true;
      return;
    }
    if (--depth_ == 0) {
      if (skipping_) {
        skipping_ = false;
        ++skipped_;
      } else {
        out.push_back({element_start_, at + 1});
      }
    }
  }
  if (depth_ > 0 && !skipping_ && base + 64 - element_start_ > max_element_) skipping_ = true;
}

ArraySplitter::Result ArraySplitter::scan(const char* buf, size_t size, bool final,
                                          std::vector<Element>& out) {
  bool array_end = false;
  while (pos_ + 64 <= size) {
    scanBlock(buf + pos_, pos_, out, array_end);
    if (array_end) return Result::kArrayEnd;
    pos_ += 64;
  }
  if (final && pos_ < size) {
    char block[64];
    std::memset(block, ' ', sizeof block);
    std::memcpy(block, buf + pos_, size - pos_);
    scanBlock(block, pos_, out, array_end);
    if (array_end && array_end_ < size) return Result::kArrayEnd;
    array_end = false;
    pos_ = size;
  }
  return Result::kNeedMore;
}

void ArraySplitter::rebase(size_t delta) {
  pos_ -= delta;
  if (depth_ > 0 && !skipping_) element_start_ -= delta;
}

}  // namespace steplint::trace
