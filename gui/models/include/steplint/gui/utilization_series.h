// The timeline's "GPU N utilization" counter row: the share of each time bucket in which at
// least one kernel ran on the device (the same kernel-busy union as the GPU summary's
// utilization, analyzer/gpu_summary.h, resolved in time instead of averaged over the steps).
#pragma once

#include <cstdint>
#include <map>

#include "steplint/gui/timeline_layout.h"
#include "steplint/trace/model.h"

namespace steplint::gui {

/// One series per device that ran kernels, keyed by device index; values are fractions
/// (0..1) over `buckets` equal slices of the trace's time range, each sample at its slice's
/// start. Empty when the trace has no kernels.
std::map<int32_t, CounterSeries> kernelBusySeries(const trace::TraceModel& model,
                                                  int buckets = 2000);

}  // namespace steplint::gui
