// Host API calls that block the calling CPU thread until GPU work has finished. Shared by the
// step replay (a wait on the host timeline) and the sync rules (SL202, SL203, SL206).
#pragma once

#include <cstdint>
#include <string_view>

namespace steplint::analyzer {

/// Which API blocked the host.
enum class SyncApi : uint8_t {
  kStreamSync,  // cudaStreamSynchronize, cuStreamSynchronize, hipStreamSynchronize
  kDeviceSync,  // cudaDeviceSynchronize, cudaCtxSynchronize, cuCtxSynchronize
  kEventSync,   // cudaEventSynchronize
  kSyncCopy,    // cudaMemcpy (not Async), cuMemcpyDtoH ...: synchronous by definition
  kSyncRecord,  // a cuda_sync record (Stream/Context/Event Sync) with no matching API call
};

/// True for API names that block the host (see SyncApi); sets `api`.
bool isSyncApiName(std::string_view name, SyncApi& api);

}  // namespace steplint::analyzer
