// Which accelerator a trace's device work ran on. Kineto names device work by activity type,
// not by vendor: CUDA and ROCm both write `kernel`, `gpu_memcpy` and `cuda_runtime` (ROCm's
// calls are hip*), XPU adds `xpu_runtime`/`xpu_driver`/`xpu_sync`, MTIA writes `mtia_runtime`
// calls and `mtia_ccp_events` device work, and Kineto >= 2025 may write plain `runtime` and
// `driver` for all of them. So the answer comes from several signs, strongest first
// (docs/analyses.md, "Accelerators").
#pragma once

#include <string_view>

#include "steplint/trace/model.h"

namespace steplint::trace {

/// Decides the accelerator from the model's events and deviceProperties, in this order: a
/// back-end's own categories (mtia_*, xpu_*, hpu_op, privateuse1_*, mlu_*/gcu_*), hip* launch
/// calls, the deviceProperties names (NVIDIA / AMD / Intel), cuda* launch calls and CUPTI-only
/// records (cuda_sync, cuda_event); device work or deviceProperties with no other sign are
/// CUDA (what Kineto records by default); nothing at all is kNone.
Accelerator detectAccelerator(const TraceModel& model);

/// The vendor a deviceProperties name belongs to ("NVIDIA A100-SXM4-80GB" -> kCuda, "AMD
/// Instinct MI250X" -> kRocm, "Intel(R) Data Center GPU Max 1550" -> kXpu); kNone if unknown.
Accelerator acceleratorFromDeviceName(std::string_view name);

}  // namespace steplint::trace
