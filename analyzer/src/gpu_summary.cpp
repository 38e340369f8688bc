// Per-GPU metrics over the kept steps (docs/reference/peer-tools.md §1.5, tb_plugin's
// gpu_metrics_parser.py). Only kernels count, as in tb_plugin: memcpy/memset never do.
#include "steplint/analyzer/gpu_summary.h"

#include <algorithm>
#include <map>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/memory_peaks.h"
#include "steplint/analyzer/start_order.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

int64_t clippedLength(const Event& e, const Interval& w) {
  return std::max<int64_t>(0, std::min(e.end_ns(), w.end) - std::max(e.start_ns, w.start));
}

/// One device's kernels inside the window, in event order: the sums whose order decides their
/// last bits (occupancy, tensor-core time) are added in that order.
struct KernelSums {
  int64_t count = 0;
  // Occupancy weighted by each kernel's time inside the window (not by the window's length).
  double occupancy_weighted = 0;
  int64_t occupancy_time = 0;
  int64_t tensor_core_ns = 0, launched_ns = 0;  // kernels with a launch call (tb_plugin)
};

/// One device's kernels in start order (start_order.h): the busy union and tb_plugin's SM
/// efficiency sweep, without gathering the kernels or their start and end points.
class KernelSweep {
 public:
  explicit KernelSweep(const Interval& w) : w_(w) {}

  void add(const Event& k, const trace::GpuDetail* g) {
    const int64_t end = std::max(k.start_ns, k.end_ns());
    busy_.add(std::max(k.start_ns, w_.start), std::min(end, w_.end));
    if (!g || !(g->blocks_per_sm > 0.0f)) return;
    // Points in time order, starts before ends at one time: the ends before this start first.
    while (!ends_.empty() && ends_.front().t < k.start_ns) popEnd();
    point(k.start_ns, g->blocks_per_sm, false);
    ends_.push_back({end, g->blocks_per_sm});
    std::push_heap(ends_.begin(), ends_.end(), later);
  }

  int64_t busyNs() { return busy_.length(); }

  /// tb_plugin sweeps kernel start/end points and clamps the SUM of the concurrent kernels'
  /// blocks-per-SM to 1 (TB-Q11), so two half-GPU kernels read as a full GPU. Kept as is: it is
  /// what the golden numbers use. -1 without such kernels or window.
  double smEfficiency() {
    while (!ends_.empty()) popEnd();
    if (!any_ || w_.length() <= 0) return -1;
    return weighted_ / static_cast<double>(w_.length());
  }

 private:
  struct End {
    int64_t t;
    float v;  // GpuDetail's float, widened to double when summed
  };
  static bool later(const End& a, const End& b) { return a.t > b.t; }

  void popEnd() {
    std::pop_heap(ends_.begin(), ends_.end(), later);
    const End e = ends_.back();
    ends_.pop_back();
    point(e.t, e.v, true);
  }

  void point(int64_t t, float v, bool is_end) {
    if (!any_) last_ = t, any_ = true;
    if (t > last_ && active_ > 0) {
      const int64_t len = std::min(t, w_.end) - std::max(last_, w_.start);
      if (len > 0) weighted_ += std::min(sum_, 1.0) * static_cast<double>(len);
    }
    last_ = t;
    active_ += is_end ? -1 : 1;
    const double dv = v;
    // Floats of similar scale sum exactly in a double, so the order among the points of one
    // time (which the sort this replaced left arbitrary too) does not change the figure; the
    // reset keeps idle stretches free of drift.
    sum_ = active_ == 0 ? 0.0 : sum_ + (is_end ? -dv : dv);
  }

  Interval w_;
  SortedUnionLength busy_;
  std::vector<End> ends_;  // the running kernels' ends: a min-heap, as deep as the concurrency
  double weighted_ = 0, sum_ = 0;
  int64_t active_ = 0, last_ = 0;
  bool any_ = false;
};

std::string deviceName(const TraceModel& model, int32_t device) {
  for (const trace::DeviceProperties& d : model.metadata.devices)
    if (d.id == device) return d.name;
  return {};
}

GpuSummary summarizeDevice(const TraceModel& model, int32_t device, const KernelSums& sums,
                           KernelSweep& sweep, const Interval& w) {
  GpuSummary s;
  s.device = device;
  s.name = deviceName(model, device);
  s.window_ns = w.length();
  s.kernel_count = sums.count;
  s.kernel_busy_ns = sweep.busyNs();
  s.utilization = s.window_ns > 0
                      ? static_cast<double>(s.kernel_busy_ns) / static_cast<double>(s.window_ns)
                      : 0;
  s.sm_efficiency = sweep.smEfficiency();
  s.achieved_occupancy = sums.occupancy_time > 0
                             ? sums.occupancy_weighted / static_cast<double>(sums.occupancy_time)
                             : -1;
  // tb_plugin: the share over kernels reachable from an operator through their launch call.
  s.tensor_core_share = !knowsTensorCoreNames(model.metadata.accelerator) ? -1
                        : sums.launched_ns > 0 ? static_cast<double>(sums.tensor_core_ns) /
                                                     static_cast<double>(sums.launched_ns)
                                               : -1;
  return s;
}

/// Each device's kernel sums, in event order. Every device with device ops gets a row (a
/// copy-only device shows 0% utilization).
std::map<int32_t, KernelSums> kernelSums(const TraceModel& model, const Interval& w) {
  std::map<int32_t, KernelSums> out;
  // Classify each distinct kernel name once: traces repeat a few hundred names millions of times.
  std::vector<int8_t> is_tc(model.strings.size(), -1);
  for (const Event& k : model.events) {
    if (!trace::isDeviceOp(k.kind)) continue;
    KernelSums& d = out[model.deviceOf(k)];
    if (k.kind != EventKind::kKernel) continue;
    ++d.count;
    const int64_t len = clippedLength(k, w);
    const trace::GpuDetail* g = model.gpu(k);
    if (g && !(g->occupancy_pct < 0.0f)) {
      d.occupancy_weighted += static_cast<double>(g->occupancy_pct) * static_cast<double>(len);
      d.occupancy_time += len;
    }
    if (k.link == trace::kNoIndex) continue;
    d.launched_ns += len;
    int8_t& cached = is_tc[k.name];
    if (cached < 0) cached = isTensorCoreKernelName(model.name(k)) ? 1 : 0;
    if (cached) d.tensor_core_ns += len;
  }
  return out;
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
  const Interval window = analysisWindow(model, steps);
  const std::map<int32_t, KernelSums> sums = kernelSums(model, window);
  std::map<int32_t, KernelSweep> sweeps;
  for (const auto& [device, s] : sums) sweeps.emplace(device, KernelSweep(window));
  forEachInStartOrder(
      model, [](const Event& e) { return e.kind == EventKind::kKernel; },
      [&](const Event& k) { sweeps.at(model.deviceOf(k)).add(k, model.gpu(k)); });
  std::vector<GpuSummary> out;
  for (const auto& [device, s] : sums)
    out.push_back(summarizeDevice(model, device, s, sweeps.at(device), window));
  addMemory(model, out);
  return out;
}

}  // namespace steplint::analyzer
