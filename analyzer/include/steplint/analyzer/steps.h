// Training steps (docs/reference/peer-tools.md §1.3, tb_plugin's StepParser, which we reproduce so
// numbers match the TensorBoard plugin users know).
//
// Host steps come from `ProfilerStep#N` ranges on CPU tracks (user_annotation or cpu_op; a
// gpu_user_annotation ProfilerStep is NOT a step, unlike tb_plugin: TB-Q9). Each step is
// extended to the end of the GPU work its launches caused; steps never overlap.
// Without ProfilerStep, steps are detected from the training loop's period (step_detect.h,
// StepSource::kDetected); when that is not confident, one step spans all CPU op activity (as
// tb_plugin), reported with StepSource::kWholeTrace so users are told.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::analyzer {

enum class StepSource { kNone, kProfilerStep, kWholeTrace, kDetected };

struct Step {
  int64_t number = 0;    // N of ProfilerStep#N; 0..N-1 for detected steps
  int64_t start_ns = 0;  // after device extension
  int64_t end_ns = 0;
  int64_t host_start_ns = 0;  // the ProfilerStep range itself (or the detected iteration)
  int64_t host_end_ns = 0;
  uint32_t event = trace::kNoIndex;  // the ProfilerStep event, if any
  int64_t device_op_count = 0;       // device ops matched through launches inside the step
  int64_t duration_ns() const { return end_ns - start_ns; }
};

struct StepOptions {
  /// Drop trailing steps whose GPU work looks incompletely captured, as tb_plugin does
  /// (TB-Q6). On by default so numbers match the reference; `--keep-tail-steps` turns it off.
  bool drop_incomplete_tail = true;
  /// Drop leading steps that took more than kWarmupFactor times the median of the later ones:
  /// start-up (CUDA context, cuBLAS/cuDNN autotuning, loader workers) rather than training.
  /// torch.profiler users skip them with schedule(warmup=...); a recording without a schedule
  /// has them. `--keep-warmup-steps` turns it off.
  bool drop_warmup_head = true;
};

struct StepResult {
  StepSource source = StepSource::kNone;
  /// True when the steps are loop iterations (ProfilerStep ranges or detected ones), so a
  /// pattern seen in every step can be told from one-time setup; false for the whole-trace
  /// fallback.
  bool stepsAreIterations() const {
    return source == StepSource::kProfilerStep || source == StepSource::kDetected;
  }
  std::vector<Step> steps;  // kept steps, in time order
  /// The training thread: the track of the ProfilerStep ranges, or the thread whose
  /// iterations were detected (kNoIndex for the whole-trace fallback and without steps).
  uint32_t main_track = trace::kNoIndex;
  int64_t dropped_tail_steps = 0;
  int64_t dropped_warmup_steps =
      0;  // leading steps dropped as start-up (StepOptions::drop_warmup_head)
  std::vector<std::string> notes;  // human-readable remarks ("no ProfilerStep ranges: ...")
};

/// A leading step is warm-up when it takes more than this many times the median later step.
inline constexpr double kWarmupFactor = 3.0;

StepResult computeSteps(const trace::TraceModel& model, const StepOptions& options = {});

}  // namespace steplint::analyzer
