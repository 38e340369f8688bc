// Where a trace shows gradient clipping: the ranges of torch.nn.utils.clip_grad_norm_ /
// clip_grad_value_ (Python frames, user annotations, C++ scopes), and — LibTorch records no
// such range — the shape of torch::nn::utils::clip_grad_norm_'s loop: a run of sibling
// per-parameter norm ops followed by the total norm and a run of per-parameter mul_.
#pragma once

#include <cstdint>
#include <vector>

#include "common/kernel_util.h"
#include "steplint/analyzer/intervals.h"
#include "steplint/trace/model.h"

namespace steplint::rules {

struct ClipRegion {
  uint32_t first =
      trace::kNoIndex;  // first event of the region on its track (the range, or the first norm op)
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool named = false;          // a clip_grad_* range; false: the unnamed per-parameter loop
  int64_t norm_ops = 0;        // unnamed: per-parameter norm ops in the run
  int64_t scanned_end_ns = 0;  // unnamed: where the scan of the norm run ended, found or not
};

/// Clipping regions starting in the kept steps, in event order. An unnamed run needs at least
/// `min_norm_run` per-parameter norm ops in a row.
std::vector<ClipRegion> findClipRegions(const trace::TraceModel& model, const StepWindow& window,
                                        int64_t min_norm_run);

/// The region's host time without the scalar reads inside it (aten::item, _local_scalar_dense,
/// is_nonzero: error_if_nonfinite's check): those waits are host syncs, SL202's finding.
analyzer::IntervalSet clipHostTime(const trace::TraceModel& model, const ClipRegion& region);

/// The launch calls inside the region (same track), in event order.
std::vector<uint32_t> clipLaunchCalls(const trace::TraceModel& model, const ClipRegion& region);

}  // namespace steplint::rules
