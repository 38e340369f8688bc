#include "steplint/analyzer/memory_peaks.h"

#include <algorithm>
#include <map>

namespace steplint::analyzer {

namespace {
constexpr int32_t kCudaDeviceType = 1;  // c10::DeviceType::CUDA
}

std::vector<DevicePeak> cudaMemoryPeaks(const trace::TraceModel& model) {
  struct Running {
    DevicePeak peak;
    int64_t sum = 0, min_sum = 0, max_sum = 0;
  };
  std::map<int32_t, Running> by_device;
  for (const trace::MemoryEvent& m : model.memory_events) {  // sorted by time
    if (m.device_type != kCudaDeviceType || m.device_id < 0) continue;
    Running& r = by_device[m.device_id];
    r.peak.device_id = m.device_id;
    ++r.peak.event_count;
    if (m.total_allocated >= 0 && m.total_allocated > r.peak.peak_allocated) {
      r.peak.peak_allocated = m.total_allocated;
      r.peak.peak_ts_ns = m.ts_ns;
    }
    r.peak.peak_reserved = std::max(r.peak.peak_reserved, m.total_reserved);
    // Without totals, what was allocated before the window is unknown: total(t) = B + sum(t)
    // with B >= -min(sum) because a total is never negative, so peak >= max(sum) - min(sum).
    r.sum += m.bytes;
    r.min_sum = std::min(r.min_sum, r.sum);
    r.max_sum = std::max(r.max_sum, r.sum);
    r.peak.lower_bound = r.max_sum - r.min_sum;
  }
  std::vector<DevicePeak> out;
  for (auto& [id, r] : by_device) out.push_back(r.peak);
  return out;
}

}  // namespace steplint::analyzer
