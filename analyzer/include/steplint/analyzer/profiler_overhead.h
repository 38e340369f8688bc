// What recording a trace added to its host timeline: the profiler's cost per recorded host
// event (CPU op, annotation, Python frame). The step replay takes it out before estimating
// savings (docs/savings.md "Profiler overhead"), so that a fix is not credited with time the
// profiler spent and a GPU-side fix is not hidden behind a host the profiler slowed down.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct ProfilerOverhead {
  double per_event_ns = 0;         // a CPU op or annotation; 0: not known, nothing taken out
  double per_python_frame_ns = 0;  // a Python frame (python_function)
  std::string source;              // how they were obtained, for the saving's method
  bool estimated = false;          // torch.profiler's, estimated; not the collector's measurement
  double nsFor(trace::EventKind kind) const {
    return kind == trace::EventKind::kPythonFunction ? per_python_frame_ns : per_event_ns;
  }
};

/// steplint record's traces carry the collector's own measurement (trace::kOpOverheadKey),
/// which serves both sorts. torch.profiler traces get kTorchProfilerEventNs per event, or less
/// where the trace's own nesting bounds the cost lower (profiler_cost_bound.h), for each sort.
ProfilerOverhead profilerOverhead(const trace::TraceModel& model);

/// One name of CUPTI overhead record (cat "overhead", docs/reference/trace-format.md): how many,
/// how long in all and inside the kept steps. CUPTI reports two sorts: its own work (handing
/// out and flushing activity buffers, instrumenting, resources, a full command buffer, UVM
/// set-up), which recording adds, and work CUDA does anyway that CUPTI only times (lazy module
/// and function loading, JIT compilation), which recording does not add.
struct OverheadRecordKind {
  std::string name;  // isCuptiOwnOverhead(name) tells the sort
  int64_t count = 0;
  int64_t total_ns = 0;
  int64_t in_steps_ns = 0;  // the part of the records that lies inside kept steps
};

/// True for the overhead records that are CUPTI's own work, by Kineto's names (CUPTI's
/// CUpti_ActivityOverheadKind): "Buffer Flush", "Instrumentation", "Resource", "Command Buffer
/// Full", "Activity Buffer Request", "UVM Activity Init".
bool isCuptiOwnOverhead(std::string_view name);

/// What the recording cost each analysed step: recorded host events per step (those that start
/// inside a kept step) times the cost per event. `summary` prints it (docs/analyses.md). An
/// estimated cost is also held to the steps' time: one thread records its events one after
/// another, so a step's events on one thread cannot cost more than the step lasted
/// (profiler_step_bound.h); the savings take out this capped cost.
struct StepProfilerCost {
  ProfilerOverhead overhead;
  double events_per_step = 0;  // of both sorts
  double python_frames_per_step = 0;
  double nsPerStep() const {
    return overhead.per_event_ns * (events_per_step - python_frames_per_step) +
           overhead.per_python_frame_ns * python_frames_per_step;
  }
  /// CUPTI's overhead records by name, the longest first; shown, not taken out of the savings.
  std::vector<OverheadRecordKind> cupti_records;
};
StepProfilerCost profilerCostPerStep(const trace::TraceModel& model, const StepResult& steps);

/// The lines `summary` prints under "Profiler overhead" and the GUI's overview shows: the cost
/// per step that the savings take out, then CUPTI's own work and the CUDA loading it timed
/// (profiler_overhead_text.cpp). `step_ns`: the average step, for the share; `steps`: how many
/// were kept. Empty when the trace says nothing about what its recording cost.
std::vector<std::string> profilerCostLines(const StepProfilerCost& cost, double step_ns,
                                           size_t steps);

/// The estimate for traces without a measurement (torch.profiler / Kineto): a conservative
/// ~2 µs per recorded host event. Measurements of torch.profiler's cost per op range from ~1 µs
/// (RecordFunction with Kineto's callback) to 5–10 µs (with shapes and Python stacks), so this
/// takes out the cost every configuration pays and leaves the rest in; the low end of every
/// saving leaves all of it in.
inline constexpr double kTorchProfilerEventNs = 2000;

}  // namespace steplint::analyzer
