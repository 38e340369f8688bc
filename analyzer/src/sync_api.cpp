#include "steplint/analyzer/sync_api.h"

#include <array>
#include <utility>

namespace steplint::analyzer {

bool isSyncApiName(std::string_view name, SyncApi& api) {
  static constexpr std::array<std::pair<std::string_view, SyncApi>, 12> kPrefixes = {{
      {"cudaStreamSynchronize", SyncApi::kStreamSync},
      {"cuStreamSynchronize", SyncApi::kStreamSync},
      {"hipStreamSynchronize", SyncApi::kStreamSync},
      {"cudaDeviceSynchronize", SyncApi::kDeviceSync},
      {"cudaThreadSynchronize", SyncApi::kDeviceSync},
      {"cudaCtxSynchronize", SyncApi::kDeviceSync},
      {"cuCtxSynchronize", SyncApi::kDeviceSync},
      {"hipDeviceSynchronize", SyncApi::kDeviceSync},
      {"hipCtxSynchronize", SyncApi::kDeviceSync},
      {"cudaEventSynchronize", SyncApi::kEventSync},
      {"cuEventSynchronize", SyncApi::kEventSync},
      {"hipEventSynchronize", SyncApi::kEventSync},
  }};
  for (const auto& [prefix, kind] : kPrefixes) {
    if (name.substr(0, prefix.size()) == prefix) {
      api = kind;
      return true;
    }
  }
  for (std::string_view copy : {"cudaMemcpy", "cuMemcpy", "hipMemcpy"}) {
    if (name.substr(0, copy.size()) == copy && name.find("Async") == std::string_view::npos) {
      api = SyncApi::kSyncCopy;
      return true;
    }
  }
  return false;
}

}  // namespace steplint::analyzer
