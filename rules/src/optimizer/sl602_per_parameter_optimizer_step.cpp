// SL602 per-parameter-optimizer-step: TorchTidy's OptimizerSingleTensorPattern made
// trace-based. Inside the optimizer step (`Optimizer.step#...` annotation or a
// `_single_tensor_adam/adamw/sgd` frame) the kernels are many and tiny, and no foreach/fused
// implementation (`aten::_foreach_*`, `aten::_fused_*`, `multi_tensor_apply` kernels) is used.
#include <algorithm>

#include "common/kernel_util.h"
#include "common/optimizer_ranges.h"
#include "common/shared_data.h"
#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  int64_t min_kernels_per_step = 100;
  double max_median_kernel_us = 20.0;
  double assumed_speedup = 2.0;
};

/// SL602: the optimizer step launches small kernels parameter by parameter (TorchTidy
/// OptimizerSingleTensorPattern).
class PerParameterOptimizerStepRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // Below 1 a "speedup" would predict a loss: read as 1 (no saving).
  double assumed_speedup() const { return std::max(1.0, options().assumed_speedup); }
};

}  // namespace

void registerSl602(analyzer::RuleRegistry& registry) {
  registry.add<PerParameterOptimizerStepRule>(
      {"SL602", "per-parameter-optimizer-step", analyzer::Category::kOptimizer,
       analyzer::Severity::kWarning, true,
       "the optimizer launches small kernels parameter by parameter"},
      {
          analyzer::option("min-kernels-per-step", &Options::min_kernels_per_step,
                           "flag when the optimizer step launches at least this many kernels"),
          analyzer::option("max-median-kernel-us", &Options::max_median_kernel_us,
                           "... and its median kernel is shorter than this (µs)"),
          analyzer::option(
              "assumed-speedup", &Options::assumed_speedup,
              "speedup of the optimizer step assumed for foreach/fused implementations",
              analyzer::kSpeedupBounds),
      });
}

namespace {

bool isOptimizerStepRange(std::string_view n) {
  return startsWith(n, common::kOptimizerStepPrefix) || endsWith(n, "_single_tensor_adam") ||
         endsWith(n, "_single_tensor_adamw") || endsWith(n, "_single_tensor_sgd");
}

}  // namespace

void PerParameterOptimizerStepRule::check(const AnalysisContext& context,
                                          DiagnosticSink& sink) const {
  const trace::TraceModel& model = context.model();
  if (!common::requireGpuActivity(context, sink)) return;
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  analyzer::NameMemo step_name(model, isOptimizerStepRange);
  analyzer::NameMemo multi_tensor_name(model, common::isMultiTensorName);
  const std::vector<uint32_t> ranges = common::outermostRangesInWindow(model, window, step_name);
  int64_t range_ns = 0;
  for (uint32_t i : ranges) range_ns += model.events[i].dur_ns;
  if (ranges.empty())
    return sink.notChecked("no optimizer-step range (Optimizer.step#... annotation) in the steps");
  std::vector<int64_t> durations;
  std::vector<uint32_t> kernels;
  std::vector<analyzer::Interval> busy;
  int64_t multi_tensor = 0;
  auto inStep = [&](const trace::Event& p) {
    return trace::isCpuRange(p.kind) && step_name(p.name);
  };
  for (const uint32_t index : common::kindIndex(context).of(trace::EventKind::kKernel)) {
    const trace::Event& k = model.events[index];
    if (!window.contains(k.start_ns)) continue;
    const uint32_t op = launchingOp(model, k);
    if (op == trace::kNoIndex || findEnclosing(model, op, inStep) == trace::kNoIndex) continue;
    const bool multi =
        multi_tensor_name(k.name) || findEnclosing(model, op, [&](const trace::Event& p) {
                                       return multi_tensor_name(p.name);
                                     }) != trace::kNoIndex;
    multi_tensor += multi ? 1 : 0;
    durations.push_back(k.dur_ns);
    kernels.push_back(model.indexOf(k));
    busy.push_back({k.start_ns, k.end_ns()});
  }
  const double steps = static_cast<double>(window.count);
  const double per_step = static_cast<double>(durations.size()) / steps;
  const double median_us = medianOf(durations) / 1e3;
  if (per_step < static_cast<double>(options().min_kernels_per_step) ||
      median_us >= options().max_median_kernel_us ||
      multi_tensor * 2 > static_cast<int64_t>(durations.size()))
    return;
  const double host_ms = static_cast<double>(range_ns) / steps / 1e6;
  const double gpu_ms =
      static_cast<double>(analyzer::IntervalSet::fromUnsorted(std::move(busy)).length()) / steps /
      1e6;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "the optimizer step launches %.0f kernels per step (median %.1f µs) one parameter at a time; "
      "it takes %.1f ms on the host and %.1f ms of GPU time per step",
      per_step, median_us, host_ms, gpu_ms);
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.events = sampleEvents(kernels);
  for (uint32_t i : sampleEvents(ranges, 10))
    d.evidence.ranges.push_back({model.events[i].start_ns, model.events[i].end_ns()});
  d.evidence.metrics = {{"kernels_per_step", per_step},
                        {"median_kernel_us", median_us},
                        {"optimizer_host_ms_per_step", host_ms},
                        {"optimizer_gpu_ms_per_step", gpu_ms}};
  common::EffectBuilder effect;
  for (uint32_t i : ranges) effect.hostEvent(model, i);
  for (uint32_t i : kernels) effect.deviceOp(i);
  d.saving.method = strf(
      "the optimizer step's host time and its kernels' GPU time %.1fx shorter (the assumed "
      "speed-up of a foreach/fused step)",
      assumed_speedup());
  d.effect = effect.take(1 / assumed_speedup(), 1 / assumed_speedup());
  d.fix = {
      "Python: torch.optim.Adam/AdamW/SGD(..., foreach=True) or fused=True (CUDA, float params); foreach is the "
      "default on CUDA since 2.0 unless a parameter configuration disables it",
      "LibTorch: the C++ optimizers are per-parameter loops; batch the update with the at::_foreach_* ops "
      "(e.g. at::_foreach_add_, at::_foreach_mul_) or call at::_fused_adam_ / at::_fused_sgd_ where available",
      "fewer, larger parameters (fused QKV, flattened buffers) also reduce the launches"};
  d.fingerprint_key = "optimizer-step";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
