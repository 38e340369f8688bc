// SL402 gpu-memory-headroom: DLProf's "GPU memory underutilized" problem, made evidence-based:
// the peak reserved memory is below half of the device and the GPU is idle for part of the
// step, so a larger batch would fill both.
#include <algorithm>
#include <cmath>

#include "common/kernel_util.h"
#include "steplint/analyzer/memory_peaks.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::cudaMemoryPeaks;
using analyzer::DevicePeak;
using analyzer::DiagnosticSink;

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// Of `device`'s idle per step, the share in which the host waited for data (the step
/// attribution's "idle: data"); -1 when the attribution has no such device or no idle.
double idleDataShare(const analyzer::AnalysisContext& context, int32_t device) {
  const auto* ns = analyzer::averageDeviceNs(context.summary().attribution, device);
  if (ns == nullptr) return -1;
  double idle = 0;
  for (int c = 0; c < analyzer::kDeviceCauseCount; ++c)
    if (analyzer::isIdleCause(static_cast<analyzer::DeviceCause>(c))) idle += (*ns)[c];
  return idle > 0 ? (*ns)[static_cast<size_t>(analyzer::DeviceCause::kIdleData)] / idle : -1;
}
}  // namespace

namespace {

struct Options {
  double max_memory_fraction = 0.5;
  double max_utilization = 0.8;
};

/// SL402: a GPU that is both under-utilized and uses little of its memory: room for a larger batch.
class GpuMemoryHeadroomRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl402(analyzer::RuleRegistry& registry) {
  registry.add<GpuMemoryHeadroomRule>(
      {"SL402", "gpu-memory-headroom", analyzer::Category::kMemory, analyzer::Severity::kWarning,
       true, "an under-utilized GPU uses little of its memory: room for a larger batch"},
      {
          analyzer::option(
              "max-memory-fraction", &Options::max_memory_fraction,
              "flag when the peak reserved memory (else allocated) is below this share",
              analyzer::kShareBounds),
          analyzer::option("max-utilization", &Options::max_utilization,
                           "flag only when the GPU's kernel utilization is below this",
                           analyzer::kShareBounds),
      });
}

void GpuMemoryHeadroomRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (!common::requireKnownDevice(context, sink, common::kCudaAndRocm,
                                  "CUDA caching-allocator memory events"))
    return;
  const trace::TraceModel& model = context.model();
  if (!common::requireGpuActivity(context, sink)) return;
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  const std::vector<DevicePeak> peaks = cudaMemoryPeaks(model);
  if (peaks.empty())
    return sink.notChecked(
        "no GPU memory events (torch.profiler: profile_memory=True; steplint record: a CUDA build of "
        "libtorch >= 2.1)");
  for (const analyzer::GpuSummary& gpu : context.summary().gpus) {
    auto it = std::find_if(peaks.begin(), peaks.end(),
                           [&](const DevicePeak& p) { return p.device_id == gpu.device; });
    const trace::DeviceProperties* dev = deviceProperties(model, gpu.device);
    if (it == peaks.end() || !it->hasTotals() || !dev || dev->total_global_mem <= 0) {
      sink.notChecked(strf(
          "GPU %d: peak memory or capacity unknown (needs Total Allocated and deviceProperties)",
          gpu.device));
      continue;
    }
    // Reserved (what the caching allocator holds, allocated + its cache) bounds what a larger
    // batch can use; without it, allocated. The message names which one it quotes, since
    // `summary` shows both.
    const bool reserved = it->peak_reserved >= it->peak_allocated;
    const int64_t peak = reserved ? it->peak_reserved : it->peak_allocated;
    const double capacity = static_cast<double>(dev->total_global_mem);
    const double fraction = static_cast<double>(peak) / capacity;
    if (fraction >= options().max_memory_fraction || gpu.utilization >= options().max_utilization ||
        peak <= 0)
      continue;
    const double room = std::floor(0.9 * capacity / static_cast<double>(peak));
    const double idle_ms =
        static_cast<double>(gpu.window_ns - gpu.kernel_busy_ns) / window.count / 1e6;
    analyzer::Diagnostic d = makeDiagnostic();
    d.message = strf(
        "GPU %d peak %s memory is %.2f GiB of %.1f GiB (%.1f%%) while its utilization is %.1f%%: the batch "
        "could grow about %.0fx",
        gpu.device, reserved ? "reserved" : "allocated", static_cast<double>(peak) / kGiB,
        capacity / kGiB, 100 * fraction, 100 * gpu.utilization, room);
    d.evidence.steps = keptStepNumbers(context);
    d.evidence.ranges.push_back({window.start_ns, window.end_ns});
    d.evidence.metrics = {
        {"device", gpu.device},           {"peak_bytes", static_cast<double>(peak)},
        {"capacity_bytes", capacity},     {"peak_fraction", fraction},
        {"utilization", gpu.utilization}, {"gpu_idle_ms_per_step", idle_ms}};
    // A larger batch makes each step longer and each sample cheaper: not a saving of step time,
    // and the idle it would fill is the same idle the host-side findings claim.
    d.saving.method = strf(
        "not a step-time saving: a larger batch fills up to %.1f ms/step of GPU idle with more "
        "samples, so the time per sample falls while the step gets longer",
        idle_ms);
    d.fix = {
        strf(
            "raise the batch size (up to about %.0fx by memory; activations grow linearly with it) and scale "
            "the learning rate (linear scaling or warm-up)",
            room),
        "LibTorch: pass the new batch size to torch::data::make_data_loader(..., DataLoaderOptions(batch)); "
        "Python: DataLoader(batch_size=...)",
        "measure again: SL301 and this rule should both go quiet"};
    d.fingerprint_key = strf("gpu%d", gpu.device);
    if (const double data = idleDataShare(context, gpu.device); data >= 0.5) {
      // The input pipeline's wait grows with the batch: more samples per step do not make a
      // sample cheaper until the loader keeps up (step attribution, "idle: data").
      d.severity = analyzer::Severity::kNote;
      d.message += strf(
          "; but %.0f%% of that idle is waiting for data: a larger batch waits proportionally "
          "longer, so fix the input pipeline first (SL101)",
          100 * data);
      d.evidence.metrics.emplace_back("idle_data_share", data);
    }
    sink.report(std::move(d));
  }
}

}  // namespace steplint::rules
