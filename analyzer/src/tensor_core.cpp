// Tensor-core kernel names. tb_plugin only knows NVIDIA PyProf's 2020 allowlist (TB-Q3); we
// keep it and add the families that appeared since, while refusing names that say they run
// on the FP32 pipeline.
#include <array>
#include <string_view>

#include "steplint/analyzer/gpu_summary.h"

namespace steplint::analyzer {
namespace {

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

template <size_t N>
bool containsAny(std::string_view s, const std::array<std::string_view, N>& parts) {
  for (std::string_view p : parts)
    if (contains(s, p)) return true;
  return false;
}

// tb_plugin TC_Allowlist (tensor_core.py), substring match.
constexpr std::array<std::string_view, 18> kTbAllowlist = {"h884",
                                                           "s884",
                                                           "h1688",
                                                           "s1688",
                                                           "hmma",
                                                           "i8816",
                                                           "16816",
                                                           "dgrad_1x1_stride_2x2",
                                                           "first_layer_wgrad_kernel",
                                                           "conv1x1",
                                                           "conv2d_c1_k1",
                                                           "direct_group",
                                                           "xmma_implicit_gemm",
                                                           "xmma_sparse_conv",
                                                           "xmma_warp_specialized_implicit_gemm",
                                                           "xmma_gemm",
                                                           "xmma_sparse_gemm",
                                                           "c1688"};

// Newer families: cuBLAS/cuDNN `smXX_xmma_*` (any op: fprop/dgrad/wgrad/gemm), CUTLASS 2/3
// `tensorop` kernels (plain or mangled `MmaTensorOp`), Hopper warp-group MMA (`gmma`, `wgmma`),
// WMMA-API kernels, the int8 16832 shape, and cuBLAS 12 `nvjet_*`.
// CUTLASS 3 spells the Hopper MMA `Gmma` / `GMMA` in its mainloop and tile types.
constexpr std::array<std::string_view, 8> kModernPatterns = {
    "_xmma_", "tensorop", "TensorOp", "gmma", "Gmma", "GMMA", "wmma", "16832"};

// Kernels whose name states the FP32 FMA pipeline or plain single/double GEMM are never TC,
// even when another part of the name would match (e.g. `sm80_xmma_gemm_f32f32_..._ffma_`,
// which tb's `xmma_gemm` entry counts).
constexpr std::array<std::string_view, 4> kFp32Markers = {"ffma", "dfma", "_simt_", "Simt"};

bool isFlashAttention(std::string_view name) {
  if (contains(name, "flash_fwd") || contains(name, "flash_bwd")) return true;
  // FlashAttention 3 (Hopper): flash::FlashAttnBwd<...>, flash::compute_attn_ws<
  // Flash_fwd_kernel_traits<...>>; FlashAttention only runs half, bfloat16 and FP8 on MMA.
  if (contains(name, "flash::FlashAttn") || contains(name, "Flash_fwd_kernel_traits") ||
      contains(name, "Flash_bwd_kernel_traits"))
    return true;
  // xformers / PyTorch memory-efficient attention: TC only for half types.
  return contains(name, "fmha") && (contains(name, "f16") || contains(name, "bf16"));
}

// FP8 matrix multiplies exist only on tensor cores (Hopper, Ada, Blackwell): a GEMM kernel whose
// name says FP8 (DeepSeek's `cutlass::device_kernel<...fp8_ptp128c::GemmKernel>`, DeepGEMM's
// `fp8_gemm_kernel`, `...e4m3...gemm...`).
// `fbgemm` (FBGEMM's FP8 quantize kernels) is a library name, not a GEMM.
bool namesGemm(std::string_view name) {
  for (std::string_view word : {"gemm", "Gemm", "GEMM"})
    for (size_t at = name.find(word); at != std::string_view::npos; at = name.find(word, at + 1))
      if (at < 2 || name.substr(at - 2, 2) != "fb") return true;
  return false;
}

bool isFp8Gemm(std::string_view name) {
  return namesGemm(name) && (contains(name, "fp8") || contains(name, "FP8") ||
                             contains(name, "e4m3") || contains(name, "e5m2"));
}

bool isNvjet(std::string_view name) {
  const size_t at = name.find("nvjet_");
  if (at == std::string_view::npos) return false;
  // nvjet_<A><C><D>_...: only all-FP32 / all-FP64 variants could avoid tensor cores.
  const std::string_view types = name.substr(at + 6, 3);
  return types != "sss" && types != "ddd";
}

// ROCm Tensile GEMMs name their MFMA (matrix-core) tile as `_MI<M>x<N>x<B>_`, e.g.
// `Cijk_Ailk_Bjlk_SB_..._MI16x16x1_...`; kernels without a matrix instruction have no such token.
bool isTensileMatrixCore(std::string_view name) {
  if (name.substr(0, 5) != "Cijk_") return false;
  const size_t at = name.find("_MI");
  return at != std::string_view::npos && at + 3 < name.size() && name[at + 3] >= '1' &&
         name[at + 3] <= '9';
}

bool isCublasLtTensor(std::string_view name) {
  return contains(name, "cublasLt") && (contains(name, "tensor") || contains(name, "Tensor"));
}

}  // namespace

bool knowsTensorCoreNames(trace::Accelerator accelerator) {
  return accelerator == trace::Accelerator::kNone || accelerator == trace::Accelerator::kCuda ||
         accelerator == trace::Accelerator::kRocm;
}

bool isTensorCoreKernelName(std::string_view name) {
  if (containsAny(name, kFp32Markers)) return false;
  return containsAny(name, kTbAllowlist) || containsAny(name, kModernPatterns) ||
         isFlashAttention(name) || isFp8Gemm(name) || isNvjet(name) || isCublasLtTensor(name) ||
         isTensileMatrixCore(name);
}

}  // namespace steplint::analyzer
