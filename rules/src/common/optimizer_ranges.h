// The optimizer step as a torch.profiler trace shows it: torch.optim.Optimizer wraps every
// step() in a record_function named "Optimizer.step#<Class>.step" (profile_hook_step in
// torch/optim/optimizer.py). LibTorch's C++ optimizers label nothing.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/kernel_util.h"
#include "common/trace_tree.h"
#include "steplint/trace/model.h"

namespace steplint::rules::common {

inline constexpr std::string_view kOptimizerStepPrefix = "Optimizer.step#";

/// An op or kernel of a multi-tensor implementation: `aten::_foreach_*` / `aten::_fused_*`
/// ops and their `multi_tensor_apply` kernels (optimizers, clip_grad_norm_ with foreach).
inline bool isMultiTensorName(std::string_view n) {
  return startsWith(n, "aten::_foreach_") || startsWith(n, "aten::_fused_") ||
         n.find("multi_tensor_apply") != std::string_view::npos;
}

/// CPU ranges starting inside `window` whose name `is_range(StringId)` accepts (an
/// analyzer::NameMemo), outermost only: a wrapper optimizer whose step calls an accepted inner
/// step, or a subclass calling super().step(), would otherwise count one step twice.
template <typename IsRange>
std::vector<uint32_t> outermostRangesInWindow(const trace::TraceModel& model,
                                              const StepWindow& window, IsRange&& is_range) {
  auto accepted = [&](const trace::Event& e) {
    return trace::isCpuRange(e.kind) && is_range(e.name);
  };
  std::vector<uint32_t> ranges;
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (!trace::isCpuRange(e.kind) || !window.contains(e.start_ns) || !is_range(e.name)) continue;
    if (findAncestor(model, i, accepted) == trace::kNoIndex) ranges.push_back(i);
  }
  return ranges;
}

}  // namespace steplint::rules::common
