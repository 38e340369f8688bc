// Small helpers shared by the GPU-execution, memory, distributed and optimizer rules:
// attribution of device ops to the CPU ops that launched them, the kept-step window,
// formatting of figures for one-line messages, and evidence sampling.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/rule_support.h"
#include "steplint/analyzer/rule.h"
#include "steplint/trace/model.h"

namespace steplint::rules {

/// Runtime and driver calls that put work on a device: kernel and graph launches, copies and
/// memsets (cudaLaunchKernel, cuLaunchKernel, cudaGraphLaunch, cudaMemcpyAsync, hipMemsetAsync
/// ...). A process that only initialised CUDA or queried devices makes none.
int64_t deviceWorkCalls(const trace::TraceModel& model);

/// The CPU range that issued a device op (device op -> launch call -> CPU op), or kNoIndex.
uint32_t launchingOp(const trace::TraceModel& model, const trace::Event& device_op);

/// `index` itself or its nearest enclosing event (same track) for which `pred` holds; kNoIndex if
/// none.
template <typename Pred>
uint32_t findEnclosing(const trace::TraceModel& model, uint32_t index, Pred pred) {
  for (uint32_t i = index; i != trace::kNoIndex; i = model.events[i].parent)
    if (pred(model.events[i])) return i;
  return trace::kNoIndex;
}

/// [first kept step start, last kept step end) and the number of kept steps.
struct StepWindow {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  size_t count = 0;
  bool empty() const { return count == 0; }
  bool contains(int64_t t) const { return t >= start_ns && t < end_ns; }
  int64_t length() const { return end_ns - start_ns; }
};
StepWindow keptStepWindow(const analyzer::AnalysisContext& context);

/// ProfilerStep numbers of the kept steps.
std::vector<int64_t> keptStepNumbers(const analyzer::AnalysisContext& context);

/// deviceProperties entry with this id, or nullptr.
const trace::DeviceProperties* deviceProperties(const trace::TraceModel& model, int32_t id);

/// Median of the values, halfway between the central two for an even count (0 for none).
double medianOf(const std::vector<int64_t>& values);

using common::strf;  // one printf-style formatter for all rules (rule_support.h)

/// At most `cap` indices, evenly spread over `all` (keeps first and last).
std::vector<uint32_t> sampleEvents(const std::vector<uint32_t>& all, size_t cap = 20);

inline bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
inline bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace steplint::rules
