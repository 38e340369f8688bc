// Per-GPU summary over the kept steps (docs/reference/peer-tools.md §1.5): utilization, estimated
// SM efficiency, estimated achieved occupancy and tensor-core kernel time share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct GpuSummary {
  int32_t device = -1;
  std::string name;       // from deviceProperties when present
  int64_t window_ns = 0;  // [first kept step start, last kept step end)
  int64_t kernel_count = 0;
  int64_t kernel_busy_ns = 0;      // |∪ kernels ∩ window|
  double utilization = 0;          // kernel_busy_ns / window_ns
  double sm_efficiency = -1;       // -1 when no kernel has "blocks per SM"
  double achieved_occupancy = -1;  // percent (0..100), -1 when unknown
  double tensor_core_share =
      -1;  // fraction of op-launched kernel time in TC kernels; -1 no kernels or
           // names of an accelerator knowsTensorCoreNames() does not know
  // Allocator memory over the whole trace (memory_peaks.h: "Total Allocated" / "Total
  // Reserved" of `[memory]` events); -1 when the trace has none with totals.
  int64_t peak_allocated_bytes = -1;
  int64_t peak_reserved_bytes = -1;
  int64_t memory_bytes = -1;  // deviceProperties totalGlobalMem; -1 unknown
};

/// The analysis window: [first kept step start, last kept step end); the whole trace
/// ([min start, max end]) when there are no steps.
Interval analysisWindow(const trace::TraceModel& model, const StepResult& steps);

std::vector<GpuSummary> computeGpuSummary(const trace::TraceModel& model, const StepResult& steps);

/// True if the kernel name belongs to a tensor-core kernel family. Covers tb_plugin's PyProf
/// allowlist (TB-Q3) plus modern families (sm80/sm90 cutlass tensorop, cublasLt, nvjet, flash).
bool isTensorCoreKernelName(std::string_view name);

/// True when isTensorCoreKernelName knows the accelerator's kernel names (NVIDIA and ROCm
/// Tensile); on other devices the tensor-core share is unknown (-1), not 0.
bool knowsTensorCoreNames(trace::Accelerator accelerator);

}  // namespace steplint::analyzer
