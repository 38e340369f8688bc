#include "gpu_execution/kernel_precision.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/json_args.h"
#include "common/kernel_util.h"
#include "gpu_execution/tensor_core_eligible.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::rules {
namespace {

template <size_t N>
bool mentions(std::string_view name, const std::array<std::string_view, N>& markers) {
  return std::any_of(markers.begin(), markers.end(),
                     [&](std::string_view m) { return name.find(m) != std::string_view::npos; });
}

// 16-bit and 8-bit input types as cuBLAS, cuDNN, CUTLASS and flash attention name them:
// `ampere_fp16_s16816gemm_fp16`, `sm80_xmma_gemm_bf16bf16_bf16f32_f32`, `volta_h884gemm`,
// `cutlass_80_tensorop_f16_s16816gemm`, `cutlass::half_t`, `c10::BFloat16`, and the upper-case
// spellings some libraries use (`BF16`, `FP16`, `FP8`). Volta's `s884`
// shape only exists for fp16 inputs; flash attention has no FP32 kernels.
constexpr std::array<std::string_view, 24> kReducedMarkers = {
    "fp16",  "bf16", "_f16", "f16f16",   "h884",     "h1688",     "h16816",    "hmma",
    "hgemm", "half", "Half", "bfloat16", "BFloat16", "flash_fwd", "flash_bwd", "s884",
    "i8816", "imma", "fp8",  "e4m3",     "e5m2",     "BF16",      "FP16",      "FP8"};

// TF32 kernels say so (`ampere_tf32_s1688gemm_tf32`, `sm80_xmma_fprop_implicit_gemm_tf32f32`);
// CUTLASS's `s1688gemm` without a 16-bit marker is the TF32 MMA on FP32 operands.
constexpr std::array<std::string_view, 2> kTf32Markers = {"tf32", "s1688gemm"};

// The FP32 FMA pipeline: cuBLAS `sgemm`, cuDNN `scudnn` / `convolve_sgemm`, `ffma`, CUTLASS SIMT.
constexpr std::array<std::string_view, 5> kFp32Markers = {"sgemm", "scudnn", "ffma", "_simt_",
                                                          "Simt"};

// `float` as a template argument (`gemv2T_kernel_val<int, int, float, float, ...>`), not
// `bfloat16` or `float2`-like vector types.
bool hasFloatTemplateArgument(std::string_view name) {
  for (size_t at = name.find("float"); at != std::string_view::npos;
       at = name.find("float", at + 1)) {
    const char before = at > 0 ? name[at - 1] : ' ';
    const char after = at + 5 < name.size() ? name[at + 5] : ' ';
    if ((before == '<' || before == ' ' || before == ',') &&
        (after == ',' || after == '>' || after == ' '))
      return true;
  }
  return false;
}

}  // namespace

KernelPrecision kernelPrecisionFromName(std::string_view name) {
  if (mentions(name, kReducedMarkers)) return KernelPrecision::kReduced;
  if (mentions(name, kTf32Markers)) return KernelPrecision::kTf32;
  if (mentions(name, kFp32Markers) || hasFloatTemplateArgument(name)) return KernelPrecision::kFp32;
  return KernelPrecision::kUnknown;
}

KernelPrecision precisionFromInputTypes(std::string_view input_types_json) {
  const std::optional<std::vector<std::string>> types = common::jsonArrayItems(input_types_json);
  if (!types) return KernelPrecision::kUnknown;
  bool any_float = false;
  for (const std::string& t : *types) {
    if (t == "c10::Half" || t == "c10::BFloat16") return KernelPrecision::kReduced;
    any_float = any_float || t == "float";
  }
  return any_float ? KernelPrecision::kFp32 : KernelPrecision::kUnknown;
}

struct KernelPrecisionClassifier::Memos {
  explicit Memos(const trace::TraceModel& model)
      : by_name(model, kernelPrecisionFromName),
        by_types(model, precisionFromInputTypes),
        graph_launch(model, isGraphLaunchName) {}
  analyzer::NameMemo<KernelPrecision (*)(std::string_view)> by_name;
  analyzer::NameMemo<KernelPrecision (*)(std::string_view)> by_types;
  analyzer::NameMemo<bool (*)(std::string_view)> graph_launch;
};

KernelPrecisionClassifier::KernelPrecisionClassifier(const trace::TraceModel& model)
    : model_(model), memos_(std::make_unique<Memos>(model)) {}

KernelPrecisionClassifier::~KernelPrecisionClassifier() = default;

KernelPrecision KernelPrecisionClassifier::operator()(const trace::Event& kernel,
                                                      bool tensor_core) {
  const KernelPrecision by_name = memos_->by_name(kernel.name);
  if (by_name != KernelPrecision::kUnknown) return by_name;
  // A graph replay's op did not build the kernel: its input types say nothing about it.
  if (kernel.link != trace::kNoIndex && memos_->graph_launch(model_.events[kernel.link].name))
    return KernelPrecision::kUnknown;
  for (uint32_t op = launchingOp(model_, kernel); op != trace::kNoIndex;
       op = model_.events[op].parent) {
    const trace::OpDetail* detail = model_.op(model_.events[op]);
    if (!detail || detail->input_types == 0) continue;
    const KernelPrecision by_type = memos_->by_types(detail->input_types);
    if (by_type == KernelPrecision::kUnknown) continue;
    return by_type == KernelPrecision::kFp32 && tensor_core ? KernelPrecision::kTf32 : by_type;
  }
  return KernelPrecision::kUnknown;
}

}  // namespace steplint::rules
