// HTA's default event selection (docs/reference/peer-tools.md §2.1 step 5, HTA-Q3), so steplint can
// report idle time and the temporal breakdown over exactly the events HTA analyses.
//
// HTA (`Trace.load_traces(include_last_profiler_step=False)`) drops the last ProfilerStep when
// the trace names at least two distinct `ProfilerStep#N`: it keeps the non-GPU events that
// start before the last ProfilerStep starts, and the GPU events whose `correlation` matches a
// kept non-GPU event (their launch call). With 0 or 1 step names it keeps everything.
#pragma once

#include <cstdint>
#include <string>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct HtaWindow {
  /// True when at least two distinct ProfilerStep#N names exist, so the last step is dropped.
  bool filtered = false;
  int distinct_steps = 0;  // distinct `ProfilerStep#N` names on non-GPU events
  int64_t cutoff_ns = 0;   // start of the last ProfilerStep (latest start); 0 when !filtered
  std::string last_step;   // its name, e.g. "ProfilerStep#6"; "" when !filtered

  /// Whether HTA keeps this device-side event (kernel, memcpy, memset, cuda_sync). An event
  /// with a correlation id is kept when its launch call starts before the cutoff; one without
  /// is no "GPU event" for HTA and is kept by its own start, like a CPU event.
  bool keeps(const trace::TraceModel& model, const trace::Event& e) const;
};

HtaWindow computeHtaWindow(const trace::TraceModel& model);

}  // namespace steplint::analyzer
