// HTA's temporal breakdown (docs/reference/peer-tools.md §2.3, `get_temporal_breakdown`), per GPU:
// how the time from the first to the last GPU event splits into idle, computation and
// non-computation (communication, copies, memsets, stream syncs).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "steplint/analyzer/hta_window.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

/// HTA's kernel types (§2.2, `get_kernel_type`), decided by name only.
enum class HtaKernelType { kCommunication, kMemory, kComputation, kOther };
HtaKernelType htaKernelType(std::string_view name);

struct TemporalBreakdown {
  int32_t device = -1;
  int64_t kernel_time_ns = 0;  // T: first GPU event start → last GPU event end
  int64_t idle_ns = 0;         // T − |∪ GPU events|
  int64_t compute_ns = 0;      // |∪ COMPUTATION events|
  int64_t non_compute_ns = 0;  // T − compute − idle
  /// x / T (0..1); 0 when T is 0. HTA prints round(100 · x / T, 2).
  double fraction(int64_t part_ns) const {
    return kernel_time_ns > 0 ? static_cast<double>(part_ns) / static_cast<double>(kernel_time_ns)
                              : 0.0;
  }
};

/// One row per device with GPU events that `window` keeps. HTA's GPU events here are the
/// device ops and the stream-bound `cuda_sync` events (HTA counts host-blocking sync time as
/// non-compute busy time, HTA-Q5; reproduced so the numbers match).
std::vector<TemporalBreakdown> computeTemporalBreakdown(const trace::TraceModel& model,
                                                        const HtaWindow& window);

}  // namespace steplint::analyzer
