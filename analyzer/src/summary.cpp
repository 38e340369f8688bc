#include "steplint/analyzer/summary.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <functional>
#include <future>

#include "steplint/trace/importer.h"
#include "steplint/trace/parallel_for.h"

namespace steplint::analyzer {
namespace {

bool hasDeviceOps(const trace::TraceModel& model) {
  return std::any_of(model.events.begin(), model.events.end(),
                     [](const trace::Event& e) { return trace::isDeviceOp(e.kind); });
}

/// The analyses that need no steps: idle time over the whole trace and over HTA's window,
/// HTA's temporal breakdown, the top kernels.
void summarizeDevice(const trace::TraceModel& model, const SummaryOptions& options,
                     TraceSummary& s) {
  s.idle = computeIdleBreakdown(model, options.idle);
  s.hta = computeHtaWindow(model);
  s.idle_hta = computeIdleBreakdown(model, options.idle,
                                    [&](const trace::Event& op) { return s.hta.keeps(model, op); });
  s.temporal = computeTemporalBreakdown(model, s.hta);
  s.top_kernels = computeKernelStats(model, options.top_kernels);
}

/// The idle time over the steps' window.
void summarizeStepsWindow(const trace::TraceModel& model, const SummaryOptions& options,
                          TraceSummary& s) {
  s.steps_window = analysisWindow(model, s.steps);
  const Interval w = s.steps_window;
  s.idle_steps = computeIdleBreakdown(model, options.idle, [w](const trace::Event& op) {
    return op.start_ns >= w.start && op.start_ns < w.end;
  });
}

}  // namespace

// torch 1.9 to 1.13 write a cpu_to_cuda flow start per op that ran CUDA work and nothing of
// the GPU; older ones add each op's CUDA-event time on a "CUDA functions" row, still no kernel
// (docs/reference/trace-format.md, the array form).
std::string noGpuActivityText(const trace::TraceModel& model) {
  const uint64_t linked = model.stats.get(trace::Stat::legacy_gpu_work_unwritten);
  if (linked == 0) return "no GPU activity in this trace";
  return "no GPU kernels in this trace (the legacy profiler's export links " +
         std::to_string(linked) + " ops to CUDA work but writes no kernels)";
}

TraceSummary summarize(const trace::TraceModel& model, const SummaryOptions& options) {
  TraceSummary s;
  s.source = model.metadata.source_path;
  s.event_count = model.events.size();
  s.track_count = model.tracks.size();
  // Each analysis reads the model only and writes its own fields, so independent ones run on
  // two threads; every number is the same as in order (docs/benchmarks.md). One thread finds the
  // steps, then the input wait and the attribution that needs it; the other takes the analyses
  // that need no steps, then waits for the steps. The analyses that need only the steps go to
  // whichever thread is free first, largest first, so neither is left alone at the end. Task 0
  // never waits, so one thread runs everything; if the steps fail (out of memory), the wait
  // rethrows instead of hanging.
  const int threads =
      options.threads > 0 ? options.threads : static_cast<int>(trace::availableCores());
  std::promise<void> steps_done;
  std::shared_future<void> steps_ready = steps_done.get_future().share();
  const std::array<std::function<void()>, 4> after_steps = {
      [&] { s.breakdown = computeBreakdown(model, s.steps); },
      [&] { s.gpus = computeGpuSummary(model, s.steps); },
      [&] { summarizeStepsWindow(model, options, s); },
      [&] { s.profiler = profilerCostPerStep(model, s.steps); }};
  std::atomic<size_t> next_after_steps{0};
  const auto runAfterSteps = [&] {
    for (size_t i; (i = next_after_steps++) < after_steps.size();) after_steps[i]();
  };
  trace::parallelFor(2, threads, [&](size_t task) {
    if (task == 1) {
      summarizeDevice(model, options, s);
      steps_ready.get();
      return runAfterSteps();
    }
    try {
      s.steps = computeSteps(model, options.steps);
    } catch (...) {
      steps_done.set_exception(std::current_exception());
      throw;
    }
    steps_done.set_value();
    s.input_wait = inferInputWait(model, s.steps);
    s.attribution = computeAttribution(model, s.steps, s.input_wait.ranges);
    runAfterSteps();
  });
  s.idle_options = options.idle;
  if (s.steps.steps.empty()) s.notes.push_back("no steps: step-time breakdown not computed");
  if (!hasDeviceOps(model))
    s.notes.push_back(
        noGpuActivityText(model) + ": GPU summary, idle time and kernel tables not computed" +
        (model.stats.get(trace::Stat::legacy_gpu_work_unwritten) > 0
             ? "; torch.profiler on a torch built with Kineto, or steplint record, records them"
             : ""));
  // Whatever the profiler was asked for: record_shapes, with_stack and profile_memory were
  // probably set, but only the format can be known, so the note speaks of the format.
  if (model.metadata.legacy_profiler_export)
    s.notes.push_back(
        "the legacy profiler's export (torch without Kineto, or use_kineto=False): its format "
        "records no input shapes, Python stacks or memory events (steplint record or a torch "
        "built with Kineto records them)");
  return s;
}

}  // namespace steplint::analyzer
