#include "steplint/analyzer/profiler_overhead.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "profiler_cost_bound.h"
#include "profiler_step_bound.h"
#include "steplint/trace/recorded_names.h"
#include "text_table.h"

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

/// kTorchProfilerEventNs, or the trace's bound where that is lower; `bounded` collects the
/// words for the bounds used ("513 ns per op").
double boundedCost(const ProfilerCostBound& bound, const char* sort, std::string& bounded) {
  if (bound.ns < 0 || bound.ns >= kTorchProfilerEventNs) return kTorchProfilerEventNs;
  bounded += (bounded.empty() ? "" : " and ") + formatFixed(bound.ns, 0) + " ns per " + sort;
  return bound.ns;
}

/// Scales an estimated cost down so that the recording fits in its steps (profiler_step_bound.h),
/// and says so in its source.
void scaleToSteps(ProfilerOverhead& o, double scale, const std::string& why) {
  o.per_event_ns *= scale;
  o.per_python_frame_ns *= scale;
  std::string words = formatFixed(o.per_event_ns, 0) + " ns per op";
  if (o.per_python_frame_ns != o.per_event_ns)
    words += " and " + formatFixed(o.per_python_frame_ns, 0) + " ns per Python frame";
  o.source += "; scaled to " + words + " so that the recording fits in its steps (" + why + ")";
}

}  // namespace

ProfilerOverhead profilerOverhead(const trace::TraceModel& model) {
  if (const std::string* measured = extra(model, trace::kOpOverheadKey)) {
    const double ns = parseNs(*measured);
    if (ns >= 0) {
      const std::string* samples = extra(model, trace::kOpOverheadSamplesKey);
      return {ns, ns,
              "the recording's cost per recorded op, " +
                  std::to_string(static_cast<long long>(ns)) +
                  " ns, measured by steplint's collector" +
                  (samples ? " over " + *samples + " sampled ops" : std::string())};
    }
  }
  if (extra(model, "steplint_version") != nullptr)
    return {0, 0, "not measured by this recording (an older steplint): nothing taken out"};
  const ProfilerCostBounds bounds = boundProfilerCost(model);
  std::string bounded;
  ProfilerOverhead out;
  out.per_event_ns = boundedCost(bounds.op, "op", bounded);
  out.per_python_frame_ns = boundedCost(bounds.python, "Python frame", bounded);
  out.estimated = true;
  out.source = "torch.profiler's cost per recorded host event estimated at 2 us";
  if (!bounded.empty())
    out.source += ", at most " + bounded +
                  " by the trace's own nesting (the self time per child of its densest callers)";
  return out;
}

bool isCuptiOwnOverhead(std::string_view name) {
  for (std::string_view own : {"Buffer Flush", "Instrumentation", "Resource", "Command Buffer Full",
                               "Activity Buffer Request", "UVM Activity Init"})
    if (name == own) return true;
  return false;
}

namespace {

/// Adds one overhead record to its name's totals.
void addOverheadRecord(const trace::TraceModel& model, const IntervalSet& steps,
                       const trace::Event& e, std::vector<OverheadRecordKind>& kinds) {
  const std::string_view name = model.name(e);
  auto it = std::find_if(kinds.begin(), kinds.end(),
                         [&](const OverheadRecordKind& k) { return k.name == name; });
  if (it == kinds.end()) {
    kinds.push_back({std::string(name)});
    it = kinds.end() - 1;
  }
  ++it->count;
  it->total_ns += e.dur_ns;
  it->in_steps_ns += steps.overlapLength(e.start_ns, e.end_ns());
}

}  // namespace

StepProfilerCost profilerCostPerStep(const trace::TraceModel& model, const StepResult& steps) {
  StepProfilerCost cost;
  cost.overhead = profilerOverhead(model);
  IntervalSetBuilder spans;
  for (const Step& s : steps.steps) spans.add(s.start_ns, s.end_ns);
  const IntervalSet kept = spans.build();
  int64_t events = 0, frames = 0;
  size_t hint = 0;
  for (const trace::Event& e : model.events) {
    if (e.kind == trace::EventKind::kOverhead)
      addOverheadRecord(model, kept, e, cost.cupti_records);
    if (trace::isCpuRange(e.kind) && keptStepAt(steps, e.start_ns, hint) < steps.steps.size()) {
      ++events;
      frames += e.kind == trace::EventKind::kPythonFunction;
    }
  }
  std::stable_sort(cost.cupti_records.begin(), cost.cupti_records.end(),
                   [](const OverheadRecordKind& a, const OverheadRecordKind& b) {
                     return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
                   });
  if (cost.overhead.estimated) {
    std::string why;
    const double scale = stepTimeScale(model, steps, cost.overhead, why);
    if (scale < 1) scaleToSteps(cost.overhead, scale, why);
  }
  if (!steps.steps.empty()) {
    const auto n = static_cast<double>(steps.steps.size());
    cost.events_per_step = static_cast<double>(events) / n;
    cost.python_frames_per_step = static_cast<double>(frames) / n;
  }
  return cost;
}

}  // namespace steplint::analyzer
