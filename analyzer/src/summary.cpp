#include "steplint/analyzer/summary.h"

#include <algorithm>

namespace steplint::analyzer {
namespace {

bool hasDeviceOps(const trace::TraceModel& model) {
  return std::any_of(model.events.begin(), model.events.end(),
                     [](const trace::Event& e) { return trace::isDeviceOp(e.kind); });
}

}  // namespace

TraceSummary summarize(const trace::TraceModel& model, const SummaryOptions& options) {
  TraceSummary s;
  s.source = model.metadata.source_path;
  s.event_count = model.events.size();
  s.track_count = model.tracks.size();
  s.steps = computeSteps(model, options.steps);
  s.breakdown = computeBreakdown(model, s.steps);
  s.input_wait = inferInputWait(model, s.steps);
  s.attribution = computeAttribution(model, s.steps, s.input_wait.ranges);
  s.profiler = profilerCostPerStep(model, s.steps);
  s.gpus = computeGpuSummary(model, s.steps);
  s.idle = computeIdleBreakdown(model, options.idle);
  s.steps_window = analysisWindow(model, s.steps);
  const Interval w = s.steps_window;
  s.idle_steps = computeIdleBreakdown(model, options.idle, [w](const trace::Event& op) {
    return op.start_ns >= w.start && op.start_ns < w.end;
  });
  s.hta = computeHtaWindow(model);
  s.idle_hta = computeIdleBreakdown(model, options.idle,
                                    [&](const trace::Event& op) { return s.hta.keeps(model, op); });
  s.temporal = computeTemporalBreakdown(model, s.hta);
  s.idle_options = options.idle;
  s.top_kernels = computeKernelStats(model, options.top_kernels);
  if (s.steps.steps.empty()) s.notes.push_back("no steps: step-time breakdown not computed");
  if (!hasDeviceOps(model))
    s.notes.push_back(
        "no GPU activity in this trace: GPU summary, idle time and kernel tables not computed");
  return s;
}

}  // namespace steplint::analyzer
