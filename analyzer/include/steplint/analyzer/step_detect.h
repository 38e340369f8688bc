// Step detection for traces without ProfilerStep#N ranges (a LibTorch trainer recorded with
// `steplint record -- ./train`, or a torch.profiler trace whose loop never called prof.step()).
//
// A training loop is periodic: data, forward, loss, backward, optimizer. The backward pass is
// the easiest phase to find (its ops are named `…Backward0` / `autograd::engine::evaluate_
// function: …` and arrive in one dense burst, on the calling thread on CPU or on the autograd
// device thread on CUDA), so we find the bursts first, then the thread that launches them, and
// then, between two bursts on that thread, where the next iteration begins (docs/analyses.md §1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "steplint/analyzer/steps.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer {

struct DetectedSteps {
  /// Host ranges only (start == host_start, end == host_end), numbered 0..N-1; empty when the
  /// loop could not be found with confidence (then `note` says why).
  std::vector<Step> steps;
  std::string note;
  uint32_t main_track = trace::kNoIndex;  // the thread whose iterations the steps are
  int64_t backward_passes = 0;
  // The first / last backward pass's iteration, cut by the profiling window (fewer ops before
  // the pass, or a shorter phase after it, than every other iteration): left out of `steps`.
  bool first_cut = false, last_cut = false;
};

DetectedSteps detectSteps(const trace::TraceModel& model);

/// Autograd backward ops: `autograd::engine::evaluate_function: XBackward0`, `XBackward0`,
/// old-style `XBackward` (torch ≤ 1.8) and `torch::autograd::AccumulateGrad`.
bool isBackwardOpName(std::string_view name);

}  // namespace steplint::analyzer
