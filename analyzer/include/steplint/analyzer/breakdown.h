// Step-time breakdown by priority subtraction (docs/reference/peer-tools.md §1.4): Kernel > Memcpy
// > Memset > Communication > Runtime > DataLoader > CPU Exec, remainder Other. Each category's time
// per step is the part of the step covered by that role and by no higher-priority role, so the
// categories sum exactly to the step time.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

enum class StepCategory : uint8_t {
  kKernel,
  kMemcpy,
  kMemset,
  kCommunication,
  kRuntime,
  kDataLoader,
  kCpuExec,
  kOther
};
inline constexpr int kStepCategoryCount = 8;
std::string_view stepCategoryName(StepCategory c);  // "Kernel", ..., "CPU Exec", "Other"

struct StepBreakdown {
  int64_t step_number = 0;
  int64_t total_ns = 0;
  std::array<int64_t, kStepCategoryCount> ns{};  // indexed by StepCategory
};

struct BreakdownResult {
  std::vector<StepBreakdown> per_step;  // same order as StepResult::steps
  double average_total_ns = 0;
  std::array<double, kStepCategoryCount> average_ns{};
  /// average_ns[c] / average_total_ns (0 when there are no steps)
  double averageFraction(StepCategory c) const;
};

/// `extra_dataloader`: more time with the DataLoader role (an inferred input phase,
/// input_wait.h, measured as a DataLoader range would be); empty for the tb_plugin breakdown.
BreakdownResult computeBreakdown(const trace::TraceModel& model, const StepResult& steps,
                                 const IntervalSet& extra_dataloader = {});

/// Role predicates shared with the rules (tb_plugin §1.2 names, exact spellings).
bool isDataLoaderName(
    std::string_view name);  // enumerate(DataLoader)#...__next__ or enumerate(DataPipe)#...
bool isCommunicationOpName(std::string_view name);  // nccl:/gloo: collectives
/// NCCL's and RCCL's own kernels (nccl*, rccl*, *ncclKernel*, *ncclDevKernel*).
bool isCommunicationKernelName(std::string_view name);
/// Communication kernels of other libraries: DeepEP's expert-parallel all-to-all (`deep_ep::`,
/// DeepSeek's own `dpsk::ep::`) and NVSHMEM's (`nvshmem`). tb_plugin's breakdown counts them
/// as kernels (its communication is NCCL's); the step attribution and the job report count
/// them as communication, not compute (docs/analyses.md "Step attribution").
bool isPeerLibraryKernelName(std::string_view name);

}  // namespace steplint::analyzer
