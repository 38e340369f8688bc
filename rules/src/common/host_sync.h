// Host synchronizations: CUDA API calls (and cuda_sync records) that block the CPU thread
// until GPU work finishes, classified by what issued them. Shared by SL202, SL203, SL206.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/rule.h"
#include "steplint/analyzer/sync_api.h"
#include "steplint/trace/model.h"

namespace steplint::rules::common {

using analyzer::SyncApi;

/// What made the program synchronize.
enum class SyncCause : uint8_t {
  kExplicit,      // no op around it: torch.cuda.synchronize(), stream/event .synchronize()
  kScalarRead,    // aten::item / aten::_local_scalar_dense / aten::is_nonzero / aten::equal
  kCopyToHost,    // a DtoH copy (.cpu(), .tolist(), .numpy()) followed by the sync
  kCopyToDevice,  // an HtoD/DtoD copy followed by the sync (blocking .to(device))
  kOtherOp,       // another op that reads a device value (nonzero, masked_select, unique ...)
  kUnknown,       // a cuda_sync record without a matching call
  kCollective,    // the communication backend's own: inside a gloo:/nccl: collective, or DDP's
                  // forward before the model's first op (it waits for earlier collectives)
};
inline constexpr size_t kSyncCauseCount = 7;
std::string_view syncCauseName(SyncCause cause);

using analyzer::isSyncApiName;

struct HostSync {
  uint32_t event = trace::kNoIndex;  // the API call or cuda_sync record
  uint32_t op = trace::kNoIndex;     // outermost aten op that issued it (kNoIndex: explicit)
  uint32_t copy = trace::kNoIndex;   // the memcpy device op the sync waits for, if any
  SyncApi api = SyncApi::kStreamSync;
  SyncCause cause = SyncCause::kExplicit;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int64_t wait_start_ns = 0;  // start of the blocking: the copy call's start when a copy precedes
  uint32_t range = trace::kNoIndex;  // innermost CPU range around the call (for display)
  int step = -1;                     // index into steps().steps
  int32_t device = -1;               // device waited on (-1: unknown)
  int64_t gpu_idle_ns = 0;  // GPU idle after the return (DeviceBusyTimeline::idleAfterSync)
  // Of gpu_idle_ns, the part in which the host was loading the next batch (DataLoader ranges,
  // or the inferred input phase). Said in the message so that a long idle next to a small
  // saving reads right: the step replay decides how much of it the sync really cost (loading
  // that could have overlapped GPU work the sync waited for) and how much the loading alone.
  int64_t gpu_idle_loader_ns = 0;
};

/// " (X ms of it while the host loads the next batch)" when loading took a noticeable part
/// (≥ 5 %) of the GPU idle that follows the syncs, else "".
std::string loaderShare(double idle_ms, double loader_ms);

/// Every host sync inside a kept step, in time order (all threads). Computed once per context
/// (SL202 and SL206 both ask).
const std::vector<HostSync>& findHostSyncs(const analyzer::AnalysisContext& context);

}  // namespace steplint::rules::common
