// Peak allocator memory per device from `[memory]` instant events (docs/reference/trace-format.md
// §9). Keyed by (device type, device id) so CPU records (type 0, id -1) are never compared with a
// GPU's capacity (TB-Q5). Used by the GPU summary and by SL401/SL402.
#pragma once

#include <cstdint>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct DevicePeak {
  int32_t device_id = -1;       // CUDA device index
  int64_t peak_allocated = -1;  // max "Total Allocated"; -1 when the events carry no totals
  int64_t peak_reserved = -1;   // max "Total Reserved"
  int64_t peak_ts_ns = 0;       // when the allocated peak was reached
  int64_t lower_bound =
      0;  // from Bytes alone: max - min of the running sum (a lower bound of the peak)
  int64_t event_count = 0;
  bool hasTotals() const { return peak_allocated >= 0; }
};

/// CUDA devices (device type 1) only, ordered by id.
std::vector<DevicePeak> cudaMemoryPeaks(const trace::TraceModel& model);

}  // namespace steplint::analyzer
