// When each GPU was busy (union of kernels, memcpys and memsets over all its streams), to
// measure the GPU idle time that a host synchronization causes.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "steplint/analyzer/intervals.h"
#include "steplint/trace/model.h"

namespace steplint::rules::common {

class DeviceBusyTimeline {
 public:
  explicit DeviceBusyTimeline(const trace::TraceModel& model);
  bool empty() const { return busy_.empty(); }
  /// Devices that ran at least one device op.
  std::vector<int32_t> devices() const;
  /// The GPU idle a host sync [sync_start, sync_end) causes on `device` (all its streams; -1 =
  /// all devices merged): from the moment the device drained (inside the sync: it waited for
  /// that work) to the first device op starting after the return. 0 when the device was still
  /// busy at the return, was already idle when the sync started (it did not wait), or has no
  /// further work before `limit_ns` (the end of the step).
  int64_t idleAfterSync(int32_t device, int64_t sync_start_ns, int64_t sync_end_ns,
                        int64_t limit_ns) const {
    const analyzer::Interval gap = idleGapAfterSync(device, sync_start_ns, sync_end_ns, limit_ns);
    return gap.end - gap.start;
  }
  /// The same idle as an interval [drained, next device op) (empty {0, 0} when none).
  analyzer::Interval idleGapAfterSync(int32_t device, int64_t sync_start_ns, int64_t sync_end_ns,
                                      int64_t limit_ns) const;
  /// How much of [start, end) `device` (-1 = all devices merged) ran nothing: the part of a
  /// host-side range that the GPU did not hide.
  int64_t idleWithin(int32_t device, int64_t start_ns, int64_t end_ns) const;

 private:
  const analyzer::IntervalSet* set(int32_t device) const;
  std::map<int32_t, analyzer::IntervalSet> busy_;
  analyzer::IntervalSet all_;  // all devices merged; empty with one device (its own set serves)
};

}  // namespace steplint::rules::common
