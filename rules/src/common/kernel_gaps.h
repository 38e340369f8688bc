// GPU idle time inside the kept steps, per device, classified by cause (HTA's idle
// categories, docs/reference/peer-tools.md §2.4, but on the device's merged timeline instead of per
// stream, so a gap counts only when no stream of the device is busy):
//   host wait  - the next device op's launch call started after the device had drained: the
//                GPU waited for the host to issue work;
//   launch gap - a host-wait gap shorter than a threshold (default 100 µs): the signature of
//                per-kernel launch overhead rather than of a long CPU phase such as data loading;
//   other      - everything else (dependency waits, ops launched before the gap, the tail).
// Example: ops [0,10) [12,20) [500,510) µs with launches at 1, 11 and 490 µs in a [0,600) µs
// window: the 2 µs gap is kernel-launched-early (other), the 480 µs gap is host wait (not a
// launch gap with a 100 µs threshold), the trailing 90 µs is other; busy = 28 µs.
#pragma once

#include <cstdint>
#include <vector>

#include "steplint/analyzer/rule.h"

namespace steplint::rules {

struct DeviceGaps {
  int32_t device = -1;
  int64_t window_ns = 0;      // kept-step window
  int64_t busy_ns = 0;        // |∪ kernels, copies, memsets ∩ window|
  int64_t host_wait_ns = 0;   // includes launch_gap_ns
  int64_t launch_gap_ns = 0;  // host-wait gaps shorter than the threshold
  int64_t launch_gap_count = 0;
  std::vector<int64_t> kernel_durations;  // kernels starting in the window
  std::vector<uint32_t> host_wait_ops;  // device ops that ended a host-wait gap, longest gap first
  std::vector<analyzer::TimeRange> host_wait_ranges;  // the same gaps, same order
  std::vector<uint32_t> launch_gap_ops;  // device ops that ended a launch gap, in time order
  int64_t idleNs() const { return window_ns - busy_ns; }
};

/// One entry per device with device ops in the kept-step window (empty without steps).
/// Computed once per context and threshold (SL301 and SL302 both ask).
const std::vector<DeviceGaps>& computeDeviceGaps(const analyzer::AnalysisContext& context,
                                                 int64_t launch_gap_threshold_ns);

}  // namespace steplint::rules
