// Tensor-core-eligible operators and the share of kernel time they launch (tb_plugin's
// tc_eligible_ops_kernel_ratio, docs/reference/peer-tools.md §1.5, with the TB-Q4 fix).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/kernel_util.h"
#include "steplint/analyzer/rule.h"

namespace steplint::rules {

/// tb_plugin's exact eligible-op names plus the names autograd and ATen emit since PyTorch
/// 1.10/1.11 (`AddmmBackward0`, `ConvolutionBackward0`, `aten::convolution_backward`, ...).
bool isTensorCoreEligibleOp(std::string_view name);

struct EligibleKernelTime {
  int64_t op_kernel_ns = 0;    // kernels launched directly by any CPU op (the denominator)
  int64_t eligible_ns = 0;     // ... by a bottom-most eligible op
  int64_t eligible_tc_ns = 0;  // ... of which in tensor-core kernels
  int64_t tc_ns = 0;           // all kernels in tensor-core kernels (tb's tc_used numerator)
  int64_t all_kernel_ns = 0;   // all kernels
  int32_t main_device = -1;    // device with the most eligible kernel time
  // Kernels replayed by a CUDA graph launch: the op around cudaGraphLaunch is the replay, not
  // the op that built each kernel, so they are judged by name (isMatmulKernelName); counted in
  // op_kernel_ns and, when eligible, in eligible_ns.
  int64_t graph_ns = 0;
  int64_t graph_eligible_ns = 0;
  int64_t graph_eligible_fp32_ns = 0;  // ... of which FP32 without tensor cores
  // Eligible non-TC kernels whose name or op's dtype says 16/8-bit (a bf16 GEMV): they miss
  // the tensor cores, but not for FP32's reasons, and TF32 or autocast would not change them.
  int64_t eligible_reduced_ns = 0;
  std::vector<uint32_t> eligible_fp32_kernels;     // other eligible non-TC kernels, event order
  std::vector<uint32_t> eligible_tc_kernels;       // eligible tensor-core kernels, event order
  std::vector<uint32_t> eligible_reduced_kernels;  // the 16/8-bit non-TC ones, event order
  int64_t eligibleNonTcNs() const { return eligible_ns - eligible_tc_ns - eligible_reduced_ns; }
};

/// A conv/matmul/attention kernel by its name: cuBLAS, cuDNN, CUTLASS and flash-attention
/// names (`sgemm`, `s16816gemm`, `implicit_gemm`, `scudnn`, `dgrad`, `fmha`, `nvjet`, ...) and
/// every tensor-core kernel. For kernels whose launching op is unknown (graph replays).
bool isMatmulKernelName(std::string_view name);

/// True for a graph launch call (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch).
bool isGraphLaunchName(std::string_view name);

/// Over kernels starting in [start_ns, end_ns).
EligibleKernelTime measureEligibleKernelTime(const trace::TraceModel& model, int64_t start_ns,
                                             int64_t end_ns);

/// measureEligibleKernelTime over the kept steps, computed once per context (SL303 and SL305
/// both judge the same kernels).
const EligibleKernelTime& keptStepsEligibleKernelTime(const analyzer::AnalysisContext& context);

/// What SL303 and SL305 judge: the kept steps' eligible kernel time and the GPU that ran most of
/// it.
struct EligibleWork {
  StepWindow window;
  const EligibleKernelTime* time = nullptr;
  const trace::DeviceProperties* device = nullptr;
};

/// The precondition the precision rules share: reports "not checked" with the reason (no GPU
/// activity, no deviceProperties, no steps, no kernel attributed to an op, no compute
/// capability) and returns nullopt when the trace cannot decide. `hardware` ends the
/// deviceProperties reason: "cannot tell whether the GPU has <hardware>".
std::optional<EligibleWork> eligibleWork(const analyzer::AnalysisContext& context,
                                         analyzer::DiagnosticSink& sink, std::string_view hardware);

}  // namespace steplint::rules
