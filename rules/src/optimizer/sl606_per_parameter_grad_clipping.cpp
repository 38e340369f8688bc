// SL606 per-parameter-grad-clipping: clip_grad_norm_ launches a norm kernel and a mul_ kernel
// per parameter (and clip_grad_value_ a clamp_ per parameter) when it runs its per-tensor
// loop; torch.nn.utils.clip_grad_norm_(foreach=True) — the default for CUDA tensors since
// PyTorch 2.0 — does the same work with a few _foreach_norm / _foreach_mul_ launches.
// Regions come from sl606_clip_regions; this file judges and reports them.
#include <algorithm>

#include "common/optimizer_ranges.h"
#include "common/shared_data.h"
#include "optimizer/sl606_clip_regions.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  int64_t min_kernels_per_step = 50;
  int64_t min_norm_run = 16;
  double max_median_kernel_us = 20.0;
  double assumed_speedup = 2.0;
};

/// SL606: gradient clipping computes a norm and scales one gradient at a time (clip_grad_norm_
/// with foreach=False, PyTorch < 2.0, or LibTorch's loop) where the foreach form batches them.
class PerParameterGradClippingRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // One norm op is not a loop: at least 2.
  int64_t min_norm_run() const { return std::max<int64_t>(2, options().min_norm_run); }
  // Below 1 a "speedup" would predict a loss: read as 1 (no saving).
  double assumed_speedup() const { return std::max(1.0, options().assumed_speedup); }
};

}  // namespace

void registerSl606(analyzer::RuleRegistry& registry) {
  registry.add<PerParameterGradClippingRule>(
      {"SL606", "per-parameter-grad-clipping", analyzer::Category::kOptimizer,
       analyzer::Severity::kWarning, true,
       "gradient clipping launches small kernels parameter by parameter"},
      {
          analyzer::option(
              "min-kernels-per-step", &Options::min_kernels_per_step,
              "flag when gradient clipping launches at least this many kernels per step"),
          analyzer::option(
              "min-norm-run", &Options::min_norm_run,
              "without a clip_grad_* range: per-parameter norm ops in a row that count as LibTorch's "
              "clipping loop",
              2.0),
          analyzer::option("max-median-kernel-us", &Options::max_median_kernel_us,
                           "... and its median kernel is shorter than this (µs)"),
          analyzer::option(
              "assumed-speedup", &Options::assumed_speedup,
              "speedup of the clipping's host and GPU time assumed for the foreach form",
              analyzer::kSpeedupBounds),
      });
}

namespace {

struct ClipKernels {
  std::vector<uint32_t> kernels;
  std::vector<int64_t> durations;
  int64_t multi_tensor = 0;
  analyzer::IntervalSet host;
  analyzer::IntervalSet busy;
  bool any_named = false;
};

ClipKernels collectKernels(const AnalysisContext& context, const std::vector<ClipRegion>& regions) {
  const trace::TraceModel& model = context.model();
  const common::LaunchIndex& launches = common::launchIndex(context);
  analyzer::NameMemo multi_tensor_name(model, common::isMultiTensorName);
  ClipKernels out;
  std::vector<analyzer::Interval> busy, host;
  for (const ClipRegion& r : regions) {
    out.any_named = out.any_named || r.named;
    const analyzer::IntervalSet region_host = clipHostTime(model, r);
    host.insert(host.end(), region_host.intervals().begin(), region_host.intervals().end());
    for (uint32_t call : clipLaunchCalls(model, r)) {
      const uint32_t k = launches.deviceOpOf(call);
      if (k == trace::kNoIndex || model.events[k].kind != trace::EventKind::kKernel) continue;
      const trace::Event& kernel = model.events[k];
      const uint32_t op = launchingOp(model, kernel);
      const bool multi =
          multi_tensor_name(kernel.name) ||
          (op != trace::kNoIndex && findEnclosing(model, op, [&](const trace::Event& p) {
                                      return multi_tensor_name(p.name);
                                    }) != trace::kNoIndex);
      out.multi_tensor += multi ? 1 : 0;
      out.kernels.push_back(k);
      out.durations.push_back(kernel.dur_ns);
      busy.push_back({kernel.start_ns, kernel.end_ns()});
    }
  }
  out.busy = analyzer::IntervalSet::fromUnsorted(std::move(busy));
  out.host = analyzer::IntervalSet::fromUnsorted(std::move(host));
  return out;
}

std::vector<std::string> clippingFixes() {
  return {
      "Python: torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm, foreach=True) (the default for CUDA "
      "gradients since PyTorch 2.0; foreach=False or an older PyTorch runs the per-parameter loop)",
      "LibTorch: torch::nn::utils::clip_grad_norm_ loops over the parameters; batch it: norms = "
      "at::_foreach_norm(grads, 2), total = at::linalg_vector_norm(at::stack(norms), 2), coef = (max_norm / "
      "(total + 1e-6)).clamp_max(1.0), at::_foreach_mul_(grads, coef)",
      "a fused optimizer step that clips (or fewer, larger parameters) also removes the per-parameter launches"};
}

}  // namespace

void PerParameterGradClippingRule::check(const AnalysisContext& context,
                                         DiagnosticSink& sink) const {
  const trace::TraceModel& model = context.model();
  if (!common::requireGpuActivity(context, sink)) return;
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  const std::vector<ClipRegion> regions = findClipRegions(model, window, min_norm_run());
  if (regions.empty()) return;  // no clipping, or a foreach clipping LibTorch does not label
  const ClipKernels k = collectKernels(context, regions);
  const double steps = static_cast<double>(window.count);
  const double per_step = static_cast<double>(k.kernels.size()) / steps;
  const double median_us = medianOf(k.durations) / 1e3;
  if (per_step < static_cast<double>(options().min_kernels_per_step) ||
      median_us >= options().max_median_kernel_us ||
      k.multi_tensor * 2 > static_cast<int64_t>(k.kernels.size()))
    return;
  const double host_ms = static_cast<double>(k.host.length()) / steps / 1e6;
  const double gpu_ms = static_cast<double>(k.busy.length()) / steps / 1e6;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "gradient clipping launches %.0f kernels per step (median %.1f µs) one parameter at a time%s; it takes %.2f ms "
      "on the host and %.2f ms of GPU time per step",
      per_step, median_us,
      k.any_named ? "" : " (LibTorch's clip_grad_norm_ loop: norms, then mul_, per parameter)",
      host_ms, gpu_ms);
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.events = sampleEvents(k.kernels);
  for (size_t i = 0; i < regions.size() && i < common::kMaxEvidenceRanges; ++i)
    d.evidence.ranges.push_back({regions[i].start_ns, regions[i].end_ns});
  d.evidence.metrics = {{"kernels_per_step", per_step},
                        {"median_kernel_us", median_us},
                        {"clip_host_ms_per_step", host_ms},
                        {"clip_gpu_ms_per_step", gpu_ms},
                        {"regions_per_step", static_cast<double>(regions.size()) / steps}};
  common::EffectBuilder effect;
  for (const analyzer::Interval& iv : k.host.intervals()) effect.hostRange(iv.start, iv.end);
  for (uint32_t i : k.kernels) effect.deviceOp(i);
  const double low_speedup = 1 + (assumed_speedup() - 1) / 2;
  d.saving.method = strf(
      "the clipping's host time and its kernels' GPU time %.1fx shorter with foreach (%.1fx at the "
      "low end)",
      assumed_speedup(), low_speedup);
  d.effect =
      effect.take(1 / assumed_speedup(), 1 / assumed_speedup(), 1 / low_speedup, 1 / low_speedup);
  d.fix = clippingFixes();
  d.fingerprint_key = "grad-clipping";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
