// SL302 launch-bound-small-kernels: the median kernel is shorter than a launch (~5-20 µs of
// CPU per cudaLaunchKernel, HTA launch stats §2.7) and the GPU spends a sizeable share of the
// step in short host-wait gaps between kernels, i.e. it drains faster than the host refills it.
#include "common/kernel_gaps.h"
#include "common/kernel_util.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  double max_median_kernel_us = 10.0;
  double launch_gap_us = 100.0;
  double min_launch_idle_fraction = 0.1;
  int64_t min_kernels_per_step = 100;
};

/// SL302: many tiny kernels and a GPU that idles between them waiting for the next launch.
class LaunchBoundSmallKernelsRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // Users write µs; the model keeps ns.
  int64_t launch_gap_ns() const { return common::microsOptionToNs(options().launch_gap_us); }
};

}  // namespace

void registerSl302(analyzer::RuleRegistry& registry) {
  registry.add<LaunchBoundSmallKernelsRule>(
      {"SL302", "launch-bound-small-kernels", analyzer::Category::kGpuExecution,
       analyzer::Severity::kWarning, true, "many tiny kernels; the GPU idles between launches"},
      {
          analyzer::option("max-median-kernel-us", &Options::max_median_kernel_us,
                           "flag only when the median kernel duration is below this (µs)"),
          analyzer::option("launch-gap-us", &Options::launch_gap_us,
                           "host-wait gaps shorter than this count as launch overhead (µs)"),
          analyzer::option("min-launch-idle-fraction", &Options::min_launch_idle_fraction,
                           "flag only when launch gaps take at least this share of the step",
                           analyzer::kShareBounds),
          analyzer::option("min-kernels-per-step", &Options::min_kernels_per_step,
                           "flag only with at least this many kernels per step"),
      });
}

void LaunchBoundSmallKernelsRule::check(const AnalysisContext& context,
                                        DiagnosticSink& sink) const {
  if (!common::requireGpuActivity(context, sink)) return;
  const StepWindow window = keptStepWindow(context);
  if (window.empty())
    return sink.notChecked("no training steps: kernels per step cannot be counted");
  const double steps = static_cast<double>(window.count);
  const double step_ns = context.averageStepMs() * 1e6;
  for (const DeviceGaps& g : computeDeviceGaps(context, launch_gap_ns())) {
    const double kernels_per_step = static_cast<double>(g.kernel_durations.size()) / steps;
    const double median_us = medianOf(g.kernel_durations) / 1e3;
    const double launch_gap_per_step = static_cast<double>(g.launch_gap_ns) / steps;
    const double fraction = step_ns > 0 ? launch_gap_per_step / step_ns : 0;
    if (kernels_per_step < static_cast<double>(options().min_kernels_per_step) ||
        median_us >= options().max_median_kernel_us ||
        fraction < options().min_launch_idle_fraction)
      continue;
    const std::string noun = common::deviceNoun(context);  // "GPU", "MTIA" ...
    analyzer::Diagnostic d = makeDiagnostic();
    d.message = strf(
        "%s %d runs %.0f kernels per step with a median of %.1f µs and idles %.1f ms per step "
        "(%.1f%%) in %lld short gaps waiting for the next launch",
        noun.c_str(), g.device, kernels_per_step, median_us, launch_gap_per_step / 1e6,
        100 * fraction,
        static_cast<long long>(static_cast<double>(g.launch_gap_count) / steps + 0.5));
    d.evidence.steps = keptStepNumbers(context);
    d.evidence.ranges.push_back({window.start_ns, window.end_ns});
    d.evidence.events = sampleEvents(g.launch_gap_ops);
    d.evidence.metrics = {{"device", g.device},
                          {"kernels_per_step", kernels_per_step},
                          {"median_kernel_us", median_us},
                          {"launch_gap_ms_per_step", launch_gap_per_step / 1e6},
                          {"launch_gaps_per_step", static_cast<double>(g.launch_gap_count) / steps},
                          {"launch_gap_fraction", fraction}};
    const trace::TraceModel& model = context.model();
    common::EffectBuilder effect;
    for (uint32_t op : g.launch_gap_ops) {
      const uint32_t call = model.events[op].link;
      if (call == trace::kNoIndex) continue;
      // The host work that made the launch late: the op that issued it (dispatch, launch).
      effect.hostEvent(model,
                       model.events[call].link != trace::kNoIndex ? model.events[call].link : call);
    }
    d.saving.method = strf(
        "the host work of the late launches (those ending a GPU gap under %.0f µs) 10x shorter, as "
        "replaying a CUDA graph does (2x at the low end)",
        static_cast<double>(launch_gap_ns()) / 1e3);
    d.effect = effect.take(/*host_factor=*/0.1, /*device_factor=*/1, /*host_factor_worst=*/0.5);
    d.fix = {
        "LibTorch: capture the step with at::cuda::CUDAGraph (capture_begin/capture_end, then replay()) on "
        "static-shape inputs; Python: torch.compile(model, mode=\"reduce-overhead\") or torch.cuda.graphs",
        "fuse elementwise chains (torch.compile / TorchScript fusers) and use foreach/fused optimizers",
        "increase the batch size so each kernel does more work per launch (scale the learning rate)"};
    d.fingerprint_key = strf("gpu%d", g.device);
    sink.report(std::move(d));
  }
}

}  // namespace steplint::rules
