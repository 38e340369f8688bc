// `steplint summary`: every analysis of one trace in one value, and its renderings.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "steplint/analyzer/attribution.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/gpu_summary.h"
#include "steplint/analyzer/hta_window.h"
#include "steplint/analyzer/idle.h"
#include "steplint/analyzer/input_wait.h"
#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/kernel_stats.h"
#include "steplint/analyzer/profiler_overhead.h"
#include "steplint/analyzer/steps.h"
#include "steplint/analyzer/temporal.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct SummaryOptions {
  StepOptions steps;
  IdleOptions idle;
  size_t top_kernels = 10;
  int threads = 0;  // analyses run side by side on up to this many threads; 0: one per core
};

struct TraceSummary {
  std::string source;  // path as given
  StepResult steps;
  BreakdownResult breakdown;
  AttributionResult attribution;  // why each step's time went where it went (attribution.h)
  StepProfilerCost profiler;      // what recording cost each step (profiler_overhead.h)
  InferredInputWait
      input_wait;  // without DataLoader ranges: the inferred input phases (input_wait.h)
  std::vector<GpuSummary> gpus;
  // Idle time per stream over three windows (docs/analyses.md §4): the same algorithm gives
  // numbers far apart on different windows, so each is reported with the window it covers.
  std::vector<StreamIdle> idle;  // every device op of the trace (JSON `idle.streams`)
  Interval steps_window;         // the analysed steps (analysisWindow): the GPU summary's window
  std::vector<StreamIdle> idle_steps;  // device ops that start inside steps_window
  HtaWindow hta;  // HTA's default selection: everything before the last ProfilerStep
  std::vector<StreamIdle> idle_hta;  // HTA's get_idle_time_breakdown on its own window
  std::vector<TemporalBreakdown>
      temporal;  // HTA's get_temporal_breakdown, per GPU, on HTA's window
  std::vector<KernelStat> top_kernels;
  IdleOptions idle_options;        // the thresholds `idle` was computed with (shown next to it)
  std::vector<std::string> notes;  // what could not be computed, and why
  // counts for the header line
  size_t event_count = 0;
  size_t track_count = 0;
};

TraceSummary summarize(const trace::TraceModel& model, const SummaryOptions& options = {});

/// Why a trace without device ops has no GPU figures: "no GPU activity in this trace", or, for
/// the legacy profiler's export of a CUDA run, that the format left the kernels out.
std::string noGpuActivityText(const trace::TraceModel& model);

/// Human-readable tables (steps, breakdown with percentages, GPU summary, idle, top kernels,
/// import stats). `color` adds ANSI emphasis (for TTYs).
void printSummaryText(std::ostream& out, const TraceSummary& summary,
                      const trace::TraceModel& model, bool color = false);

/// The same content as JSON; schema documented in docs/summary-json.md ("schema":
/// "steplint.summary/1").
nlohmann::json summaryToJson(const TraceSummary& summary, const trace::TraceModel& model);

}  // namespace steplint::analyzer
