// Idle-time classification per GPU stream (docs/reference/peer-tools.md §2.4, HTA's definition):
// each gap between consecutive device ops is host wait (the next launch was issued after the
// stream drained), kernel wait (gap shorter than the threshold) or other.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct IdleOptions {
  int64_t kernel_wait_threshold_ns = 30'000;  // HTA's effective 30 µs (HTA-Q1)
};

struct StreamIdle {
  int32_t device = -1;
  int64_t stream = -1;
  int64_t span_ns = 0;  // first op start .. last op end
  int64_t busy_ns = 0;  // |∪ ops|
  int64_t host_wait_ns = 0;
  int64_t kernel_wait_ns = 0;
  int64_t other_ns = 0;
  int64_t idle_ns() const { return host_wait_ns + kernel_wait_ns + other_ns; }
};

/// Over every device op of the trace.
std::vector<StreamIdle> computeIdleBreakdown(const trace::TraceModel& model,
                                             const IdleOptions& options = {});

/// Which device ops a breakdown covers (a window): true keeps the op. Gaps are taken between
/// consecutive kept ops of a stream, as HTA does after its last-step filter.
using DeviceOpFilter = std::function<bool(const trace::Event& op)>;

/// Over the device ops `keep` accepts; streams with no kept op are left out.
std::vector<StreamIdle> computeIdleBreakdown(const trace::TraceModel& model,
                                             const IdleOptions& options,
                                             const DeviceOpFilter& keep);

}  // namespace steplint::analyzer
