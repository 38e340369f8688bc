// SL401 device-memory-near-capacity: tb_plugin R7 (peak "Total Allocated" > 90 % of
// deviceProperties[id].totalGlobalMem), per CUDA device only: CPU records (device type 0,
// id -1) are never compared with a GPU (TB-Q5).
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
}

namespace {

struct Options {
  double max_fraction = 0.9;
};

/// SL401: peak allocated GPU memory above 90% of the device's capacity (tb_plugin R7, TB-Q5 fixed).
class DeviceMemoryNearCapacityRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;
};

}  // namespace

void registerSl401(analyzer::RuleRegistry& registry) {
  registry.add<DeviceMemoryNearCapacityRule>(
      {"SL401", "device-memory-near-capacity", analyzer::Category::kMemory,
       analyzer::Severity::kWarning, true,
       "peak allocated GPU memory is close to the device's capacity"},
      {
          analyzer::option(
              "max-fraction", &Options::max_fraction,
              "flag when the peak allocated memory exceeds this share of totalGlobalMem",
              analyzer::kShareBounds),
      });
}

void DeviceMemoryNearCapacityRule::check(const AnalysisContext& context,
                                         DiagnosticSink& sink) const {
  if (!common::requireKnownDevice(context, sink, common::kCudaAndRocm,
                                  "CUDA caching-allocator memory events"))
    return;
  const trace::TraceModel& model = context.model();
  const std::vector<DevicePeak> peaks = cudaMemoryPeaks(model);
  if (peaks.empty() && !common::requireGpuActivity(context, sink)) return;
  if (peaks.empty())
    return sink.notChecked(
        "no GPU memory events (torch.profiler: profile_memory=True; steplint record: a CUDA build of "
        "libtorch >= 2.1)");
  for (const DevicePeak& p : peaks) {
    const trace::DeviceProperties* dev = deviceProperties(model, p.device_id);
    if (!dev || dev->total_global_mem <= 0) {
      sink.notChecked(strf("no deviceProperties (totalGlobalMem) for GPU %d", p.device_id));
      continue;
    }
    const double capacity = static_cast<double>(dev->total_global_mem);
    const int64_t peak = p.hasTotals() ? p.peak_allocated : p.lower_bound;
    const double fraction = static_cast<double>(peak) / capacity;
    if (fraction <= options().max_fraction) {
      if (!p.hasTotals())
        sink.notChecked(strf(
            "GPU %d memory events carry no Total Allocated (legacy trace); the allocations seen "
            "reach at least %.2f GiB (%.1f%% of %.1f GiB), which does not decide",
            p.device_id, static_cast<double>(peak) / kGiB, 100 * fraction, capacity / kGiB));
      continue;
    }
    analyzer::Diagnostic d = makeDiagnostic();
    d.message = strf("GPU %d peak allocated memory is %s%.2f GiB, %.1f%% of its %.1f GiB",
                     p.device_id, p.hasTotals() ? "" : "at least ",
                     static_cast<double>(peak) / kGiB, 100 * fraction, capacity / kGiB);
    d.evidence.steps = keptStepNumbers(context);
    if (p.hasTotals()) d.evidence.ranges.push_back({p.peak_ts_ns, p.peak_ts_ns});
    d.evidence.metrics = {{"device", p.device_id},
                          {"peak_allocated_bytes", static_cast<double>(peak)},
                          {"peak_reserved_bytes", static_cast<double>(p.peak_reserved)},
                          {"capacity_bytes", capacity},
                          {"peak_fraction", fraction}};
    d.saving.method =
        "not a time cost by itself: near capacity the caching allocator frees and retries "
        "(cudaFree/cudaMalloc, synchronizing) and the next larger input fails with out-of-memory";
    d.fix = {
        "mixed precision halves activation memory (LibTorch autocast, Python torch.autocast)",
        "recompute activations (Python: torch.utils.checkpoint; LibTorch has no checkpoint API: split the "
        "forward into segments run under torch::NoGradGuard and recompute them in a custom "
        "torch::autograd::Function)",
        "reduce the batch size and accumulate gradients over several micro-batches",
        "reduce fragmentation: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"};
    d.fingerprint_key = strf("gpu%d", p.device_id);
    sink.report(std::move(d));
  }
}

}  // namespace steplint::rules
