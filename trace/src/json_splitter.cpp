#include "json_splitter.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#if defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif
#endif

namespace steplint::trace {
namespace {

struct BlockMasks {
  uint64_t quote = 0, backslash = 0, open = 0, close = 0;
};

#if defined(__x86_64__)
// Classifying 64 bytes: one AVX-512 compare per character class where the CPU has it, else
// AVX2 or SSE2 (the x86-64 baseline); chosen once at run time. '[' | 0x20 == '{' and
// ']' | 0x20 == '}', so one compare finds both kinds of opener (and closer).
__attribute__((target("avx512f,avx512bw"))) inline BlockMasks classifyAvx512(const char* p) {
  const __m512i v = _mm512_loadu_si512(p);
  const __m512i lower = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
  BlockMasks m;
  m.quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
  m.backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
  m.open = _mm512_cmpeq_epi8_mask(lower, _mm512_set1_epi8('{'));
  m.close = _mm512_cmpeq_epi8_mask(lower, _mm512_set1_epi8('}'));
  return m;
}

__attribute__((target("avx2"))) inline uint64_t eqMaskAvx2(__m256i a, __m256i b, char c) {
  const __m256i n = _mm256_set1_epi8(c);
  const auto m0 = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, n)));
  const auto m1 = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, n)));
  return static_cast<uint64_t>(m0) | static_cast<uint64_t>(m1) << 32;
}

__attribute__((target("avx2"))) inline BlockMasks classifyAvx2(const char* p) {
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
inline BlockMasks classifySse2(const char* p) {
  __m128i v[4], lower[4];
  const __m128i bit20 = _mm_set1_epi8(0x20);
  for (int i = 0; i < 4; ++i) {
    v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    lower[i] = _mm_or_si128(v[i], bit20);
  }
  BlockMasks m;
  m.quote = eqMask(v, _mm_set1_epi8('"'));
  m.backslash = eqMask(v, _mm_set1_epi8('\\'));
  m.open = eqMask(lower, _mm_set1_epi8('{'));
  m.close = eqMask(lower, _mm_set1_epi8('}'));
  return m;
}

// The in-string mask's prefix XOR as one carry-less multiply by all ones (simdjson's
// prefix_xor): the shift ladder below is a chain of twelve dependent instructions per block.
__attribute__((target("pclmul"))) inline uint64_t prefixXorClmul(uint64_t x) {
  const __m128i v = _mm_set_epi64x(0, static_cast<int64_t>(x));
  return static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_clmulepi64_si128(v, _mm_set1_epi8(-1), 0)));
}
#elif defined(__aarch64__)
// NEON, which every AArch64 CPU has: four 16-byte compares per character class, folded into a
// 64-bit mask as simdjson's arm64 kernel does (each lane keeps its bit, pairwise adds gather).
inline uint64_t toMaskNeon(const uint8x16_t v[4], uint8x16_t needle) {
  const uint8x16_t bits = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80,
                           0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};
  uint8x16_t t[4];
  for (int i = 0; i < 4; ++i) t[i] = vandq_u8(vceqq_u8(v[i], needle), bits);
  uint8x16_t sum = vpaddq_u8(vpaddq_u8(t[0], t[1]), vpaddq_u8(t[2], t[3]));
  sum = vpaddq_u8(sum, sum);
  return vgetq_lane_u64(vreinterpretq_u64_u8(sum), 0);
}

inline BlockMasks classifyNeon(const char* p) {
  uint8x16_t v[4], lower[4];
  const uint8x16_t bit20 = vdupq_n_u8(0x20);
  for (int i = 0; i < 4; ++i) {
    v[i] = vld1q_u8(reinterpret_cast<const uint8_t*>(p) + 16 * i);
    lower[i] = vorrq_u8(v[i], bit20);
  }
  BlockMasks m;
  m.quote = toMaskNeon(v, vdupq_n_u8('"'));
  m.backslash = toMaskNeon(v, vdupq_n_u8('\\'));
  m.open = toMaskNeon(lower, vdupq_n_u8('{'));
  m.close = toMaskNeon(lower, vdupq_n_u8('}'));
  return m;
}

// The prefix XOR as one carry-less multiply (PMULL, part of the crypto extension most server
// cores have; checked at run time).
__attribute__((target("+crypto"))) inline uint64_t prefixXorPmull(uint64_t x) {
  return vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64(x, ~uint64_t{0})), 0);
}
#endif

// Portable C on every machine: the kernel elsewhere, and the reference the tests hold the
// others to.
BlockMasks classifyScalar(const char* p) {
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

inline uint64_t prefixXorShifts(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace

// A scalar element (number, string, literal) starts at each byte outside whitespace, commas
// and the scalar before it. Between Kineto's events this sees ",\n  ": a few bytes each.
void ArraySplitter::scanGap(const char* origin, size_t end) {
  // Kineto's separators, skipped by table: nearly every gap is only these.
  static constexpr auto kSeparator = [] {
    std::array<bool, 256> t{};
    for (unsigned char c : {',', ' ', '\n', '\r', '\t'}) t[c] = true;
    return t;
  }();
  size_t i = gap_from_;
  if (gap_state_ == GapState::kBetween)
    while (i < end && kSeparator[static_cast<unsigned char>(origin[i])]) ++i;
  for (; i < end; ++i) {
    const char c = origin[i];
    switch (gap_state_) {
      case GapState::kString:
        if (c == '\\') gap_state_ = GapState::kEscape;
        if (c == '"') gap_state_ = GapState::kBetween;
        continue;
      case GapState::kEscape:
        gap_state_ = GapState::kString;
        continue;
      case GapState::kToken:
      case GapState::kBetween:
        if (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t') {
          gap_state_ = GapState::kBetween;
        } else if (c == '"') {
          scalars_ += gap_state_ == GapState::kBetween;
          gap_state_ = GapState::kString;
        } else if (gap_state_ == GapState::kBetween) {
          ++scalars_;
          gap_state_ = GapState::kToken;
        }
        continue;
    }
  }
  gap_from_ = std::max(gap_from_, end);
}

// The brackets outside strings of the block at `base` (buffer offsets; origin[offset] is the
// byte): depth, element edges, the array's end. Inlined into every kernel below.
__attribute__((always_inline)) inline bool ArraySplitter::scanBrackets(
    uint64_t open, uint64_t brackets, size_t base, const char* origin, std::vector<Element>& out) {
  while (brackets) {
    const int i = __builtin_ctzll(brackets);
    brackets &= brackets - 1;
    const size_t at = base + static_cast<size_t>(i);
    if (open >> i & 1) {
      if (depth_++ == 0) {
        if (gap_from_ < at) scanGap(origin, at);
        gap_state_ = GapState::kBetween;
        element_start_ = at;
        skipping_ = false;
      }
      continue;
    }
    if (depth_ == 0) {  // the array's own closing bracket
      scanGap(origin, at);
      array_end_ = at;
      return true;
    }
    if (--depth_ == 0) {
      gap_from_ = at + 1;
      if (skipping_) {
        skipping_ = false;
        ++skipped_;
      } else {
        out.push_back({element_start_, at + 1});
      }
    }
  }
  if (depth_ > 0 && !skipping_ && base + 64 - element_start_ > max_element_) skipping_ = true;
  return false;
}

// One kernel per instruction set: the loop over blocks is compiled with the set's target so
// that classifying, the prefix XOR and the bracket walk inline into one loop (a call per block
// through a function pointer cost as much as the classifying). A macro because GCC inlines a
// target-specific function only into a function of the same target, not into a template.
// Returns the blocks scanned before the one holding the array's end (all of them if none).
#define STEPLINT_SPLIT_KERNEL(NAME, TARGET, CLASSIFY, PREFIX_XOR)                            \
  TARGET size_t ArraySplitter::NAME(const char* p, size_t base, size_t blocks,               \
                                    std::vector<Element>& out, bool& array_end) {            \
    for (size_t b = 0; b < blocks; ++b, p += 64, base += 64) {                               \
      const BlockMasks m = CLASSIFY(p);                                                      \
      const uint64_t quotes = m.quote & ~escapedChars(m.backslash, prev_odd_backslash_);     \
      const uint64_t in_string = PREFIX_XOR(quotes) ^ prev_in_string_;                       \
      prev_in_string_ = static_cast<uint64_t>(static_cast<int64_t>(in_string) >> 63);        \
      if (scanBrackets(m.open & ~in_string, (m.open | m.close) & ~in_string, base, p - base, \
                       out)) {                                                               \
        array_end = true;                                                                    \
        return b;                                                                            \
      }                                                                                      \
    }                                                                                        \
    return blocks;                                                                           \
  }

#if defined(__x86_64__)
STEPLINT_SPLIT_KERNEL(scanAvx512, __attribute__((target("avx512f,avx512bw,pclmul"))),
                      classifyAvx512, prefixXorClmul)
STEPLINT_SPLIT_KERNEL(scanAvx2, __attribute__((target("avx2,pclmul"))), classifyAvx2,
                      prefixXorClmul)
STEPLINT_SPLIT_KERNEL(scanSse2, , classifySse2, prefixXorShifts)
#elif defined(__aarch64__)
STEPLINT_SPLIT_KERNEL(scanNeonPmull, __attribute__((target("+crypto"))), classifyNeon,
                      prefixXorPmull)
STEPLINT_SPLIT_KERNEL(scanNeon, , classifyNeon, prefixXorShifts)
#endif
STEPLINT_SPLIT_KERNEL(scanScalar, , classifyScalar, prefixXorShifts)
#undef STEPLINT_SPLIT_KERNEL

namespace {
std::atomic<ArraySplitter::Kernel> g_kernel{ArraySplitter::Kernel::kAuto};

bool cpuRuns(ArraySplitter::Kernel kernel) {
  using K = ArraySplitter::Kernel;
#if defined(__x86_64__)
  __builtin_cpu_init();
  const bool clmul = __builtin_cpu_supports("pclmul");
  if (kernel == K::kAvx512) return clmul && __builtin_cpu_supports("avx512bw");
  if (kernel == K::kAvx2) return clmul && __builtin_cpu_supports("avx2");
#elif defined(__aarch64__) && defined(__linux__)
  if (kernel == K::kNeonPmull) return (getauxval(AT_HWCAP) & HWCAP_PMULL) != 0;
#endif
  return kernel == K::kBaseline || kernel == K::kPortable;
}

ArraySplitter::Kernel bestKernel() {
  using K = ArraySplitter::Kernel;
  static const K best = [] {
    for (K k : {K::kAvx512, K::kAvx2, K::kNeonPmull})
      if (cpuRuns(k)) return k;
    return K::kBaseline;
  }();
  return best;
}
}  // namespace

bool ArraySplitter::useKernel(Kernel kernel) {
  if (kernel != Kernel::kAuto && !cpuRuns(kernel)) return false;
  g_kernel.store(kernel, std::memory_order_relaxed);
  return true;
}

size_t ArraySplitter::scanBlocks(const char* p, size_t base, size_t blocks,
                                 std::vector<Element>& out, bool& array_end) {
  Kernel kernel = g_kernel.load(std::memory_order_relaxed);
  if (kernel == Kernel::kAuto) kernel = bestKernel();
  if (kernel == Kernel::kPortable) return scanScalar(p, base, blocks, out, array_end);
#if defined(__x86_64__)
  if (kernel == Kernel::kAvx512) return scanAvx512(p, base, blocks, out, array_end);
  if (kernel == Kernel::kAvx2) return scanAvx2(p, base, blocks, out, array_end);
  return scanSse2(p, base, blocks, out, array_end);
#elif defined(__aarch64__)
  if (kernel == Kernel::kNeonPmull) return scanNeonPmull(p, base, blocks, out, array_end);
  return scanNeon(p, base, blocks, out, array_end);
#else
  return scanScalar(p, base, blocks, out, array_end);
#endif
}

ArraySplitter::Result ArraySplitter::scan(const char* buf, size_t size, bool final,
                                          std::vector<Element>& out) {
  bool array_end = false;
  if (pos_ < size) {
    const size_t blocks = (size - pos_) / 64;
    pos_ += 64 * scanBlocks(buf + pos_, pos_, blocks, out, array_end);
    if (array_end) return Result::kArrayEnd;
  }
  if (final && pos_ < size) {
    char block[64];
    std::memset(block, ' ', sizeof block);
    std::memcpy(block, buf + pos_, size - pos_);
    // The copy holds only the bytes from pos_: the gap before them is read from buf first.
    if (depth_ == 0) scanGap(buf, pos_);
    scanBlocks(block, pos_, 1, out, array_end);
    if (array_end && array_end_ < size) return Result::kArrayEnd;
    array_end = false;
    pos_ = size;
  }
  // Between elements, the gap so far is read now: the buffer is refilled from pos_.
  if (depth_ == 0) scanGap(buf, std::min(pos_, size));
  return Result::kNeedMore;
}

void ArraySplitter::rebase(size_t delta) {
  pos_ -= delta;
  gap_from_ = gap_from_ > delta ? gap_from_ - delta : 0;
  if (depth_ > 0 && !skipping_) element_start_ -= delta;
}

}  // namespace steplint::trace
