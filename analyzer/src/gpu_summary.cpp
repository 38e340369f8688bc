// Per-GPU metrics over the kept steps (docs/reference/peer-tools.md §1.5, tb_plugin's
// gpu_metrics_parser.py). Only kernels count, as in tb_plugin: memcpy/memset never do.
#include "steplint/analyzer/gpu_summary.h"

#include <algorithm>
#include <map>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/memory_peaks.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

int64_t clippedLength(const Event& e, const Interval& w) {
  return std::max<int64_t>(0, std::min(e.end_ns(), w.end) - std::max(e.start_ns, w.start));
}

// tb_plugin sweeps kernel start/end points and clamps the SUM of the concurrent kernels'
// blocks-per-SM to 1 (TB-Q11), so two half-GPU kernels read as a full GPU. Kept as is: it is
// what the golden numbers use.
double smEfficiency(const TraceModel& model, const std::vector<const Event*>& kernels,
                    const Interval& w) {
  // 16 bytes, not 24: two per kernel, tens of MB on a multi-million-event trace, and the
  // largest buffer of the summary's last analyses. `v` is GpuDetail's float; widened to double
  // when summed, exactly as before.
  struct Point {
    int64_t t;
    float v;
    bool is_end;
  };
  static_assert(sizeof(Point) == 16);
  std::vector<Point> points;
  points.reserve(kernels.size() * 2);
  for (const Event* k : kernels) {
    const trace::GpuDetail* g = model.gpu(*k);
    if (!g || !(g->blocks_per_sm > 0.0f)) continue;
    points.push_back({k->start_ns, g->blocks_per_sm, false});
    points.push_back({k->end_ns(), g->blocks_per_sm, true});
  }
  if (points.empty() || w.length() <= 0) return -1;
  // Ties at one timestamp need only starts before ends; the order among equals does not
  // change the sums, so an unstable sort is enough.
  std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return a.t != b.t ? a.t < b.t : (!a.is_end && b.is_end);
  });
  double weighted = 0, sum = 0;
  int64_t active = 0, last = points.front().t;
  for (const Point& p : points) {
    if (p.t > last && active > 0) {
      const int64_t len = std::min(p.t, w.end) - std::max(last, w.start);
      if (len > 0) weighted += std::min(sum, 1.0) * static_cast<double>(len);
    }
    last = p.t;
    active += p.is_end ? -1 : 1;
    const double v = p.v;
    sum = active == 0 ? 0.0 : sum + (p.is_end ? -v : v);  // reset: no float drift when idle
  }
  return weighted / static_cast<double>(w.length());
}

// Duration-weighted over kernel time inside the window (not over the window length).
double achievedOccupancy(const TraceModel& model, const std::vector<const Event*>& kernels,
                         const Interval& w) {
  double weighted = 0;
  int64_t time = 0;
  for (const Event* k : kernels) {
    const trace::GpuDetail* g = model.gpu(*k);
    if (!g || g->occupancy_pct < 0.0f) continue;
    const int64_t len = clippedLength(*k, w);
    weighted += static_cast<double>(g->occupancy_pct) * static_cast<double>(len);
    time += len;
  }
  return time > 0 ? weighted / static_cast<double>(time) : -1;
}

// Share of the kernel time in the window spent in tensor-core kernels, over kernels that
// have a launch call (tb_plugin: kernels reachable from an operator through their runtime).
double tensorCoreShare(const TraceModel& model, const std::vector<const Event*>& kernels,
                       const Interval& w) {
  int64_t tc = 0, total = 0;
  // Classify each distinct kernel name once: traces repeat a few hundred names millions of times.
  std::vector<int8_t> is_tc(model.strings.size(), -1);
  for (const Event* k : kernels) {
    if (k->link == trace::kNoIndex) continue;
    const int64_t len = clippedLength(*k, w);
    total += len;
    int8_t& cached = is_tc[k->name];
    if (cached < 0) cached = isTensorCoreKernelName(model.name(*k)) ? 1 : 0;
    if (cached) tc += len;
  }
  return total > 0 ? static_cast<double>(tc) / static_cast<double>(total) : -1;
}

std::string deviceName(const TraceModel& model, int32_t device) {
  for (const trace::DeviceProperties& d : model.metadata.devices)
    if (d.id == device) return d.name;
  return {};
}

GpuSummary summarizeDevice(const TraceModel& model, int32_t device,
                           const std::vector<const Event*>& kernels, const Interval& w) {
  GpuSummary s;
  s.device = device;
  s.name = deviceName(model, device);
  s.window_ns = w.length();
  s.kernel_count = static_cast<int64_t>(kernels.size());
  std::vector<Interval> ranges;
  ranges.reserve(kernels.size());
  for (const Event* k : kernels) ranges.push_back({k->start_ns, k->end_ns()});
  s.kernel_busy_ns = IntervalSet::fromUnsorted(std::move(ranges)).overlapLength(w.start, w.end);
  s.utilization = s.window_ns > 0
                      ? static_cast<double>(s.kernel_busy_ns) / static_cast<double>(s.window_ns)
                      : 0;
  s.sm_efficiency = smEfficiency(model, kernels, w);
  s.achieved_occupancy = achievedOccupancy(model, kernels, w);
  s.tensor_core_share =
      knowsTensorCoreNames(model.metadata.accelerator) ? tensorCoreShare(model, kernels, w) : -1;
  return s;
}

}  // namespace

Interval analysisWindow(const TraceModel& model, const StepResult& steps) {
  if (!steps.steps.empty()) return {steps.steps.front().start_ns, steps.steps.back().end_ns};
  auto [lo, hi] = model.timeRange();
  return {lo, hi};
}

namespace {

// Peak allocator memory and capacity per GPU row. Memory is over the whole trace, not the
// kept steps: a peak in set-up or in a dropped step still decides whether the device fits.
void addMemory(const TraceModel& model, std::vector<GpuSummary>& gpus) {
  const std::vector<DevicePeak> peaks = cudaMemoryPeaks(model);
  for (GpuSummary& g : gpus) {
    for (const DevicePeak& p : peaks) {
      if (p.device_id != g.device || !p.hasTotals()) continue;
      g.peak_allocated_bytes = p.peak_allocated;
      g.peak_reserved_bytes = p.peak_reserved;
    }
    for (const trace::DeviceProperties& d : model.metadata.devices) {
      if (d.id == g.device && d.total_global_mem > 0) g.memory_bytes = d.total_global_mem;
    }
  }
}

}  // namespace

std::vector<GpuSummary> computeGpuSummary(const TraceModel& model, const StepResult& steps) {
  // Every device with device ops gets a row (a copy-only device shows 0% utilization).
  std::map<int32_t, std::vector<const Event*>> kernels_by_device;
  for (const Event& e : model.events) {
    if (!trace::isDeviceOp(e.kind)) continue;
    auto& kernels = kernels_by_device[model.deviceOf(e)];
    if (e.kind == EventKind::kKernel) kernels.push_back(&e);
  }
  const Interval window = analysisWindow(model, steps);
  std::vector<GpuSummary> out;
  for (const auto& [device, kernels] : kernels_by_device)
    out.push_back(summarizeDevice(model, device, kernels, window));
  addMemory(model, out);
  return out;
}

}  // namespace steplint::analyzer
