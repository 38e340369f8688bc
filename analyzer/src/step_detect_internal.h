// Pieces of step detection (step_detect.cpp) that are tested through detectSteps(): backward
// passes, per-thread outermost ops, phase names, and turning boundaries into steps.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "steplint/analyzer/step_detect.h"
#include "steplint/trace/model.h"

namespace steplint::analyzer::detect {

struct Pass {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int64_t ops = 0;  // outermost backward ops in the burst
};

/// Ways to split backward ops (start, end), sorted by start, into bursts, most likely first:
/// the gaps between two passes (forward, optimizer, data loading) are orders of magnitude
/// longer than the gaps inside one, so each candidate cuts at a jump in the sorted gap lengths.
/// After them, the same splits with preempted passes (two short passes adding up to one)
/// merged. Empty when no jump is clear (one pass, or none).
std::vector<std::vector<Pass>> backwardPassCandidates(
    const std::vector<std::pair<int64_t, int64_t>>& ops);

/// Every pass has a similar number of backward ops (the same model); edge passes may be cut.
bool passesRegular(const std::vector<Pass>& passes);

/// True when `e` starts exactly where an op ending at `prev_end` ends and lasts at most 1 µs:
/// in whole-µs traces (torch.autograd.profiler without Kineto rounds each start and length to
/// the µs) a child that starts in its parent's last microsecond lands at the parent's end,
/// 0 or 1 µs long, outside the parent it belongs to. Taken as part of that op.
bool isRoundedChild(const trace::Event& e, int64_t prev_end);

/// Outermost cpu_op / user_annotation ranges of one thread, skipping backward ops and ranges
/// that span two or more pass starts (an epoch or whole-loop annotation is not an iteration op).
/// A rounded child (isRoundedChild) of an outer op is part of it, not an op of its own.
std::vector<uint32_t> outerOps(const trace::TraceModel& model, uint32_t track,
                               const std::vector<Pass>& passes);

/// Ops the optimizer step, loss logging and zero_grad run between a backward pass and the
/// next iteration's data loading / forward.
bool isOptimizerPhaseName(std::string_view name);
bool isZeroGradName(std::string_view name);

/// Steps from the boundaries found between passes (bound[p]: where the iteration of pass p
/// begins) on the main thread `track` (its outer ops: `ops`). The first and last iterations
/// are kept only when they look complete.
DetectedSteps assembleSteps(const trace::TraceModel& model, uint32_t track,
                            const std::vector<Pass>& passes, const std::vector<uint32_t>& ops,
                            const std::vector<std::optional<int64_t>>& bound);

}  // namespace steplint::analyzer::detect
