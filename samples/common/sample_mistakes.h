// The slow sample's mistakes as named switches (slow_trainer --mistakes / --fix), so each fix
// can be measured alone: bench/savings compares steplint's predicted saving per finding with
// the step time the trainer gains when only that mistake is fixed. Torch-free.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace steplint::samples {

/// One bit per mistake of slow_trainer; the fix of each changes only that one thing.
enum class Mistake : uint32_t {
  kLoaderInline = 1u << 0,       // 0 workers, every sample built on the fly (SL101)
  kItemSync = 1u << 1,           // loss.item() every step (SL202)
  kZeroGradFill = 1u << 2,       // zero_grad zeroes instead of setting to None (SL601)
  kPageableCopy = 1u << 3,       // pageable batches, blocking copies (SL201, SL203)
  kCpuScalar = 1u << 4,          // a scalar built on the CPU and moved every step (SL204)
  kBatchUnaligned = 1u << 5,     // batch 100, not a multiple of 8/64 (SL403)
  kCudnnBenchmarkOff = 1u << 6,  // cudnn.benchmark off (SL304)
  kFp32Matmul = 1u << 7,         // FP32 matmuls without TF32 on a GPU (SL303)
};

struct MistakeInfo {
  Mistake mistake;
  std::string_view name;  // kebab-case, what --mistakes and --fix take
  std::string_view fix;   // what turning it off does, for the usage text and README
};

/// Every mistake in a fixed order (the order of the startup line).
inline constexpr MistakeInfo kMistakes[] = {
    {Mistake::kLoaderInline, "loader-inline", "materialised data set, one index_select per batch"},
    {Mistake::kItemSync, "item-sync", "loss summed on the device, read once at the end"},
    {Mistake::kZeroGradFill, "zero-grad-fill", "gradients set to None"},
    {Mistake::kPageableCopy, "pageable-copy", "pinned batches, non_blocking copies (GPU only)"},
    {Mistake::kCpuScalar, "cpu-scalar", "the per-step scalar created on the device"},
    {Mistake::kBatchUnaligned, "batch-unaligned", "batch 128 instead of 100"},
    {Mistake::kCudnnBenchmarkOff, "cudnn-benchmark-off", "cudnn.benchmark on"},
    {Mistake::kFp32Matmul, "fp32-matmul", "TF32 matmuls (GPU only)"},
};

/// A set of mistakes; the default is all of them (slow_trainer's behaviour without switches).
class MistakeSet {
 public:
  static MistakeSet all();
  static MistakeSet none() { return MistakeSet(0); }

  bool has(Mistake m) const { return (bits_ & static_cast<uint32_t>(m)) != 0; }
  void add(Mistake m) { bits_ |= static_cast<uint32_t>(m); }
  void remove(Mistake m) { bits_ &= ~static_cast<uint32_t>(m); }
  bool operator==(const MistakeSet& other) const { return bits_ == other.bits_; }
  /// This set without the mistakes in `fixed` (--fix after --mistakes).
  MistakeSet minus(const MistakeSet& fixed) const { return MistakeSet(bits_ & ~fixed.bits_); }
  MistakeSet with(const MistakeSet& more) const { return MistakeSet(bits_ | more.bits_); }

  /// "all", "none" or a comma-separated list of names into *out; false (and the offending
  /// name in *bad) on an unknown or empty name.
  static bool parse(std::string_view text, MistakeSet* out, std::string* bad);
  /// The names in kMistakes order, comma-separated; "none" when empty.
  std::string names() const;

 private:
  explicit MistakeSet(uint32_t bits) : bits_(bits) {}
  uint32_t bits_;
};

/// The valid names for a usage message: "all, none, loader-inline, item-sync, ...".
std::string mistakeNamesForUsage();

}  // namespace steplint::samples
