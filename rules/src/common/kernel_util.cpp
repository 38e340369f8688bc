#include "common/kernel_util.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "steplint/analyzer/medians.h"

namespace steplint::rules {

uint32_t launchingOp(const trace::TraceModel& model, const trace::Event& device_op) {
  if (device_op.link == trace::kNoIndex) return trace::kNoIndex;
  const trace::Event& call = model.events[device_op.link];
  if (!trace::isLaunchApi(call.kind) || call.link == trace::kNoIndex) return trace::kNoIndex;
  return trace::isCpuRange(model.events[call.link].kind) ? call.link : trace::kNoIndex;
}

StepWindow keptStepWindow(const analyzer::AnalysisContext& context) {
  const auto& steps = context.steps().steps;
  StepWindow w;
  if (steps.empty()) return w;
  w.start_ns = steps.front().start_ns;
  w.end_ns = steps.back().end_ns;
  w.count = steps.size();
  return w;
}

std::vector<int64_t> keptStepNumbers(const analyzer::AnalysisContext& context) {
  std::vector<int64_t> out;
  for (const auto& s : context.steps().steps) out.push_back(s.number);
  return out;
}

const trace::DeviceProperties* deviceProperties(const trace::TraceModel& model, int32_t id) {
  for (const auto& d : model.metadata.devices)
    if (d.id == id) return &d;
  return nullptr;
}

double medianOf(const std::vector<int64_t>& values) {
  return analyzer::middleMedian(std::vector<double>(values.begin(), values.end()));
}

std::vector<uint32_t> sampleEvents(const std::vector<uint32_t>& all, size_t cap) {
  if (all.size() <= cap || cap < 2)
    return std::vector<uint32_t>(all.begin(), all.begin() + std::min(all.size(), cap));
  std::vector<uint32_t> out;
  for (size_t i = 0; i < cap; ++i) out.push_back(all[i * (all.size() - 1) / (cap - 1)]);
  return out;
}

int64_t deviceWorkCalls(const trace::TraceModel& model) {
  int64_t n = 0;
  for (const trace::Event& e : model.events) {
    if (!trace::isLaunchApi(e.kind)) continue;
    const std::string_view name = model.name(e);
    if (name.find("Launch") != std::string_view::npos ||
        name.find("Memcpy") != std::string_view::npos ||
        name.find("Memset") != std::string_view::npos)
      ++n;
  }
  return n;
}

}  // namespace steplint::rules
