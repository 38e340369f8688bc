#include "steplint/analyzer/profiler_overhead.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "steplint/trace/recorded_names.h"

namespace steplint::analyzer {
namespace {

const std::string* extra(const trace::TraceModel& model, std::string_view key) {
  for (const auto& [k, v] : model.metadata.extra)
    if (k == key) return &v;
  return nullptr;
}

/// A finite, non-negative number below one second, else -1: the value comes from a file.
double parseNs(const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || errno != 0 || !(v >= 0) || v > 1e9) return -1;
  return v;
}

}  // namespace

ProfilerOverhead profilerOverhead(const trace::TraceModel& model) {
  if (const std::string* measured = extra(model, trace::kOpOverheadKey)) {
    const double ns = parseNs(*measured);
    if (ns >= 0) {
      const std::string* samples = extra(model, trace::kOpOverheadSamplesKey);
      return {ns, "the recording's cost per recorded op, " +
                      std::to_string(static_cast<long long>(ns)) +
                      " ns, measured by steplint's collector" +
                      (samples ? " over " + *samples + " sampled ops" : std::string())};
    }
  }
  if (extra(model, "steplint_version") != nullptr)
    return {0, "not measured by this recording (an older steplint): nothing taken out"};
  return {kTorchProfilerEventNs, "torch.profiler's cost per recorded host event estimated at 2 us"};
}

StepProfilerCost profilerCostPerStep(const trace::TraceModel& model, const StepResult& steps) {
  StepProfilerCost cost;
  cost.overhead = profilerOverhead(model);
  if (steps.steps.empty()) return cost;
  const auto in_step = [&](int64_t t) {  // kept steps are sorted and disjoint
    auto it = std::upper_bound(steps.steps.begin(), steps.steps.end(), t,
                               [](int64_t v, const Step& s) { return v < s.start_ns; });
    return it != steps.steps.begin() && t < (it - 1)->end_ns;
  };
  int64_t events = 0;
  for (const trace::Event& e : model.events)
    events += trace::isCpuRange(e.kind) && in_step(e.start_ns);
  cost.events_per_step = static_cast<double>(events) / static_cast<double>(steps.steps.size());
  return cost;
}

}  // namespace steplint::analyzer
