// SL404 memory-grows-across-steps: in a training loop every step frees what it allocated, so the
// memory in use at the same point of each step is flat once the allocator has warmed up. When
// it rises step after step, something keeps each step's tensors alive: the classic
// `total_loss += loss` (each loss holds its autograd graph and activations), lists of outputs,
// caches keyed by step. The loop runs out of memory later, or slows down first (allocator
// fragmentation and cache flushes, swapping on the host).
//
// Series read, one value per kept step (the largest sample inside the step's host range):
//   * `[memory]` instants' "Total Allocated" per (device type, device id): torch.profiler's
//     profile_memory events, or steplint record's per-step CUDA allocator peaks;
//   * the "Host memory (steplint)" counter that steplint record writes at step boundaries (the
//     process's resident set, which includes LibTorch's DataLoader worker threads).
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <tuple>

#include "common/kernel_util.h"
#include "common/rule_support.h"
#include "common/run_metadata.h"
#include "steplint/analyzer/rule_registry.h"
#include "steplint/trace/recorded_names.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct SeriesKey {
  int kind = 0;  // 0 allocator memory ([memory] instants), 1 host resident set (counter)
  int32_t device_type = 0;
  int32_t device_id = -1;
  bool operator<(const SeriesKey& o) const {
    return std::tie(kind, device_type, device_id) < std::tie(o.kind, o.device_type, o.device_id);
  }
};

std::string seriesLabel(const SeriesKey& key) {
  if (key.kind == 1) return "host resident memory (RSS)";
  if (key.device_type == 1) return common::strf("GPU %d allocated memory", key.device_id);
  return "CPU allocated memory";
}

/// The kept step a sample belongs to: the one whose host range holds it, or the one that starts
/// next when it lies in the gap before that step (steplint record samples host memory at the
/// step boundary, just before the step's range opens). -1 outside the kept steps.
int stepOfSample(const AnalysisContext& context, int64_t ts) {
  constexpr int64_t kBoundarySlackNs = 1000000;  // before the first kept step
  const auto& steps = context.steps().steps;
  const auto it =
      std::upper_bound(steps.begin(), steps.end(), ts,
                       [](int64_t t, const analyzer::Step& s) { return t < s.host_end_ns; });
  if (it == steps.end()) return -1;
  const int64_t gap_start =
      it == steps.begin() ? it->host_start_ns - kBoundarySlackNs : std::prev(it)->host_end_ns;
  return ts >= gap_start ? static_cast<int>(it - steps.begin()) : -1;
}

/// One value per kept step (-1: no sample in that step), per series.
using PerStep = std::map<SeriesKey, std::vector<int64_t>>;

void note(PerStep& series, const SeriesKey& key, size_t steps, int step, int64_t value) {
  if (step < 0 || value < 0) return;
  std::vector<int64_t>& v = series.try_emplace(key, steps, -1).first->second;
  v[static_cast<size_t>(step)] = std::max(v[static_cast<size_t>(step)], value);
}

PerStep perStepSeries(const AnalysisContext& context) {
  const trace::TraceModel& model = context.model();
  const size_t steps = context.steps().steps.size();
  PerStep series;
  for (const trace::MemoryEvent& m : model.memory_events)
    note(series, {0, m.device_type, m.device_type == 0 ? -1 : m.device_id}, steps,
         stepOfSample(context, m.ts_ns), m.total_allocated);
  // Interned once: compare ids, not the strings of every counter sample.
  const int64_t counter = model.strings.find(trace::kHostMemoryCounter);
  const int64_t rss = model.strings.find(trace::kHostMemorySeries);
  if (counter < 0 || rss < 0) return series;
  for (const trace::CounterSample& c : model.counters)
    if (c.name == counter && c.series == rss)
      note(series, {1, 0, -1}, steps, stepOfSample(context, c.ts_ns),
           static_cast<int64_t>(c.value));
  return series;
}

struct Growth {
  size_t points = 0;  // steps with a value
  size_t rising = 0;  // of the points - 1 step-to-step changes, how many went up
  int64_t first = 0, last = 0;
  int first_step = -1, last_step = -1;
  double slope = 0;  // least-squares bytes per kept step
};

Growth growthOf(const std::vector<int64_t>& values) {
  Growth g;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int64_t previous = -1;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0) continue;
    const double x = static_cast<double>(i), y = static_cast<double>(values[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
    if (g.points == 0) g.first = values[i], g.first_step = static_cast<int>(i);
    if (previous >= 0 && values[i] > previous) ++g.rising;
    previous = g.last = values[i];
    g.last_step = static_cast<int>(i);
    ++g.points;
  }
  const double n = static_cast<double>(g.points), denom = n * sxx - sx * sx;
  g.slope = g.points >= 2 && denom > 0 ? (n * sxy - sx * sy) / denom : 0;
  return g;
}

}  // namespace

namespace {

struct Options {
  int64_t min_steps = 5;
  double min_growth_mib = 16.0;
  double min_growth_fraction = 0.05;
  double min_rising_fraction = 0.8;
};

/// SL404: device or host memory grows step after step (tensors kept alive across iterations).
class MemoryGrowsAcrossStepsRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // A trend needs at least two steps.
  int64_t min_steps() const { return std::max<int64_t>(2, options().min_steps); }
};

}  // namespace

void registerSl404(analyzer::RuleRegistry& registry) {
  registry.add<MemoryGrowsAcrossStepsRule>(
      {"SL404", "memory-grows-across-steps", analyzer::Category::kMemory,
       analyzer::Severity::kWarning, true,
       "memory in use rises step after step: tensors are kept across iterations"},
      {
          analyzer::option("min-steps", &Options::min_steps,
                           "steps with a memory sample needed to judge a trend", 2.0),
          analyzer::option(
              "min-growth-mib", &Options::min_growth_mib,
              "flag when memory grows by at least this much (MiB) from the first to the last step"),
          analyzer::option("min-growth-fraction", &Options::min_growth_fraction,
                           "... and by at least this share of the first step's value"),
          analyzer::option("min-rising-fraction", &Options::min_rising_fraction,
                           "... and rises in at least this share of the step-to-step changes",
                           analyzer::kShareBounds),
      });
}

void MemoryGrowsAcrossStepsRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (context.steps().steps.empty()) return sink.notChecked("no training steps");
  if (!context.steps().stepsAreIterations())
    return sink.notChecked(
        "no ProfilerStep#N ranges and no iterations detected: a trend across steps needs steps");
  const PerStep series = perStepSeries(context);
  bool enough = false;
  for (const auto& [key, values] : series) {
    const Growth g = growthOf(values);
    if (static_cast<int64_t>(g.points) < min_steps()) continue;
    enough = true;
    const int64_t growth = g.last - g.first;
    const bool rises = static_cast<double>(g.rising) >=
                       options().min_rising_fraction * static_cast<double>(g.points - 1);
    if (!rises || static_cast<double>(growth) < options().min_growth_mib * 1048576.0 ||
        static_cast<double>(growth) <
            options().min_growth_fraction * static_cast<double>(g.first) ||
        g.slope <= 0)
      continue;
    analyzer::Diagnostic d = makeDiagnostic();
    std::string runway;
    const trace::DeviceProperties* gpu = key.kind == 0 && key.device_type == 1
                                             ? deviceProperties(context.model(), key.device_id)
                                             : nullptr;
    if (gpu && gpu->total_global_mem > g.last)
      runway =
          common::strf("; at this rate the GPU's %s fill in about %.0f more steps",
                       common::formatBytes(static_cast<double>(gpu->total_global_mem)).c_str(),
                       std::ceil(static_cast<double>(gpu->total_global_mem - g.last) / g.slope));
    d.message =
        common::strf("%s grows %s per step (%s -> %s over %zu steps, rising in %zu of %zu)%s",
                     seriesLabel(key).c_str(), common::formatBytes(g.slope).c_str(),
                     common::formatBytes(static_cast<double>(g.first)).c_str(),
                     common::formatBytes(static_cast<double>(g.last)).c_str(), g.points, g.rising,
                     g.points - 1, runway.c_str());
    const auto& steps = context.steps().steps;
    d.evidence.steps = {steps[static_cast<size_t>(g.first_step)].number,
                        steps[static_cast<size_t>(g.last_step)].number};
    d.evidence.ranges = {{steps[static_cast<size_t>(g.first_step)].host_start_ns,
                          steps[static_cast<size_t>(g.last_step)].host_end_ns}};
    d.evidence.metrics = {{"growth_bytes_per_step", g.slope},
                          {"first_bytes", static_cast<double>(g.first)},
                          {"last_bytes", static_cast<double>(g.last)},
                          {"steps_with_samples", static_cast<double>(g.points)},
                          {"rising_steps", static_cast<double>(g.rising)}};
    d.saving.method =
        "not a time estimate: memory that keeps growing ends in an out-of-memory error (or, on the "
        "host, swapping); the fix removes the growth";
    d.fix = {
        "LibTorch: accumulate loss.item<double>() or loss.detach(), not loss (a kept loss keeps its autograd "
        "graph and every activation it saved); do not keep per-step tensors that require grad",
        "Python: total_loss += loss.item() (or loss.detach()), not loss; detach tensors appended to lists "
        "for logging; clear per-step caches",
        "find the owner: torch.cuda.memory._record_memory_history() and a snapshot two steps apart "
        "(GPU), or tracemalloc / a heap profiler (host)"};
    d.fingerprint_key = seriesLabel(key);
    sink.report(std::move(d));
  }
  const auto& events = context.model().memory_events;
  const bool untotalled = !events.empty() && std::none_of(events.begin(), events.end(),
                                                          [](const trace::MemoryEvent& m) {
                                                            return m.total_allocated >= 0;
                                                          });
  if (!enough && events.empty() && context.model().metadata.legacy_profiler_export)
    sink.notChecked(common::legacyExportLacks(
        context.model().metadata, "memory events", "profile_memory",
        "steplint record (host memory every step; GPU allocator peaks with CUDA)"));
  else if (!enough && untotalled)
    sink.notChecked(
        "the memory events carry no Total Allocated (legacy trace): no per-step totals to compare");
  else if (!enough)
    sink.notChecked(common::strf(
        "fewer than %lld steps with memory samples: record with torch.profiler(profile_memory=True), or with "
        "steplint record (host memory every step; GPU allocator peaks with CUDA)",
        static_cast<long long>(min_steps())));
}

}  // namespace steplint::rules
