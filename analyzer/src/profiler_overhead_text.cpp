// profilerCostLines (profiler_overhead.h): the words for what the recording cost, shared by
// `summary`'s text and the GUI's overview.
#include "steplint/analyzer/profiler_overhead.h"
#include "text_table.h"

namespace steplint::analyzer {
namespace {

/// "Activity Buffer Request x5 19.5 ms, Resource x4 8.2 ms": the records of one sort.
std::string overheadRecordList(const std::vector<OverheadRecordKind>& kinds, bool own,
                               int64_t* total_ns, int64_t* in_steps_ns) {
  std::string list;
  for (const OverheadRecordKind& k : kinds) {
    if (isCuptiOwnOverhead(k.name) != own) continue;
    *total_ns += k.total_ns;
    *in_steps_ns += k.in_steps_ns;
    list += (list.empty() ? "" : ", ") + k.name + " x" + std::to_string(k.count) + " " +
            formatMs(static_cast<double>(k.total_ns)) + " ms";
  }
  return list;
}

/// CUPTI's overhead records, in two sorts (profiler_overhead.h): shown, not taken out.
void addOverheadRecordLines(const StepProfilerCost& cost, size_t steps,
                            std::vector<std::string>& lines) {
  int64_t own_ns = 0, own_in_steps = 0, cuda_ns = 0, cuda_in_steps = 0;
  const std::string own = overheadRecordList(cost.cupti_records, true, &own_ns, &own_in_steps);
  const std::string cuda = overheadRecordList(cost.cupti_records, false, &cuda_ns, &cuda_in_steps);
  const auto per_step = [&](int64_t in_steps) {
    if (steps == 0) return std::string();
    return ", " + formatMs(static_cast<double>(in_steps) / static_cast<double>(steps)) +
           " ms per kept step";
  };
  if (!own.empty())
    lines.push_back("CUPTI's own work (its overhead records; not taken out): " +
                    formatMs(static_cast<double>(own_ns)) + " ms in the trace" +
                    per_step(own_in_steps) + " (" + own + ")");
  if (!cuda.empty())
    lines.push_back(
        "CUDA's lazy loading and compilation that CUPTI timed (the run pays it unprofiled "
        "too): " +
        formatMs(static_cast<double>(cuda_ns)) + " ms in the trace" + per_step(cuda_in_steps) +
        " (" + cuda + ")");
}

/// "N recorded host events per step x C ns", or by sort when the trace has Python frames.
std::string perStepTerms(const StepProfilerCost& cost) {
  const ProfilerOverhead& o = cost.overhead;
  if (cost.python_frames_per_step <= 0)
    return formatFixed(cost.events_per_step, 0) + " recorded host events per step x " +
           formatFixed(o.per_event_ns, 0) + " ns";
  return formatFixed(cost.events_per_step - cost.python_frames_per_step, 0) +
         " recorded ops and annotations per step x " + formatFixed(o.per_event_ns, 0) + " ns + " +
         formatFixed(cost.python_frames_per_step, 0) + " Python frames x " +
         formatFixed(o.per_python_frame_ns, 0) + " ns";
}

}  // namespace

std::vector<std::string> profilerCostLines(const StepProfilerCost& cost, double step_ns,
                                           size_t steps) {
  std::vector<std::string> lines;
  if (cost.events_per_step > 0 && cost.overhead.per_event_ns <= 0) {
    lines.push_back("not taken out: " + cost.overhead.source);
  } else if (cost.events_per_step > 0) {
    const double ns = cost.nsPerStep();
    lines.push_back("~" + formatMs(ns) + " ms per step (" +
                    formatPercent(step_ns > 0 ? ns / step_ns : 0) + ") = " + perStepTerms(cost) +
                    " (" + cost.overhead.source +
                    "); the savings are estimated with it taken out (docs/savings.md)");
  }
  addOverheadRecordLines(cost, steps, lines);
  return lines;
}

}  // namespace steplint::analyzer
