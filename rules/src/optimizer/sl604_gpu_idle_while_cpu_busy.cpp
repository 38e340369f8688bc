// SL604 gpu-idle-while-cpu-busy: the trace says a GPU is there (deviceProperties, or CUDA
// runtime calls) but no kernel ran, while conv/matmul ops take long on the CPU: the model or
// the batch was never moved to the GPU. Op durations separate the cases: an op that only
// launches a kernel takes ~5-50 µs of host time; one that computes takes far longer.
#include <algorithm>
#include <string_view>

#include "common/kernel_util.h"
#include "gpu_execution/tensor_core_eligible.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  double min_share = 0.2;
  double min_median_op_us = 100.0;
  double assumed_speedup = 5.0;
};

/// SL604: a GPU is present but the heavy ops run on the CPU.
class GpuIdleWhileCpuBusyRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // Below 1 a "speedup" would predict a loss: read as 1 (no saving).
  double assumed_speedup() const { return std::max(1.0, options().assumed_speedup); }
};

}  // namespace

void registerSl604(analyzer::RuleRegistry& registry) {
  registry.add<GpuIdleWhileCpuBusyRule>(
      {"SL604", "gpu-idle-while-cpu-busy", analyzer::Category::kOptimizer,
       analyzer::Severity::kWarning, true, "a GPU is present but conv/matmul work runs on the CPU"},
      {
          analyzer::option(
              "min-share", &Options::min_share,
              "flag when conv/matmul ops take at least this share of the step on the CPU",
              analyzer::kShareBounds),
          analyzer::option(
              "min-median-op-us", &Options::min_median_op_us,
              "... and their median duration is at least this (µs): they compute, not launch"),
          analyzer::option("assumed-speedup", &Options::assumed_speedup,
                           "speedup assumed for those ops on the GPU", analyzer::kSpeedupBounds),
      });
}

void GpuIdleWhileCpuBusyRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  // ROCm builds of PyTorch use the CUDA device names and calls (hip* under cuda_runtime).
  if (!common::requireKnownDevice(
          context, sink, common::kCudaAndRocm,
          "CUDA/HIP runtime calls and device properties to tell that a GPU sat unused"))
    return;
  const trace::TraceModel& model = context.model();
  if (context.hasGpuActivity()) return;  // kernels ran: the GPU is used
  const bool runtime_calls =
      std::any_of(model.events.begin(), model.events.end(),
                  [](const trace::Event& e) { return trace::isLaunchApi(e.kind); });
  // Launches and copies put work on the GPU: the device ran it, the trace just does not show
  // it (CUDA activity not recorded, SL002; CUPTI's profiler-counter mode records none).
  if (const int64_t launches = deviceWorkCalls(model); launches > 0)
    return sink.notChecked(
        strf("the trace has %lld kernel launch or copy calls but no GPU activity: the GPU ran work "
             "that was not recorded (SL002), so it did not sit unused",
             static_cast<long long>(launches)));
  if (model.stats.get(trace::Stat::legacy_gpu_work_unwritten) > 0)
    return sink.notChecked(analyzer::noGpuActivityText(model) +
                           ": the ops ran CUDA work, so the GPU did not sit unused (SL002)");
  if (model.metadata.devices.empty() && !runtime_calls)
    return sink.notChecked(
        "no deviceProperties and no CUDA runtime calls: cannot tell whether a GPU was available");
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  std::vector<uint32_t> ops;
  std::vector<int64_t> durations;
  int64_t total = 0;
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (e.kind != trace::EventKind::kCpuOp || !window.contains(e.start_ns) ||
        !isTensorCoreEligibleOp(model.name(e)))
      continue;
    // outermost eligible op only (conv2d -> convolution -> ... would count several times)
    auto eligible = [&](const trace::Event& p) {
      return p.kind == trace::EventKind::kCpuOp && isTensorCoreEligibleOp(model.name(p));
    };
    if (e.parent != trace::kNoIndex && findEnclosing(model, e.parent, eligible) != trace::kNoIndex)
      continue;
    ops.push_back(i);
    durations.push_back(e.dur_ns);
    total += e.dur_ns;
  }
  const double steps = static_cast<double>(window.count);
  const double per_step_ms = static_cast<double>(total) / steps / 1e6;
  const double step_ms = context.averageStepMs();
  const double share = step_ms > 0 ? per_step_ms / step_ms : 0;
  const double median_us = medianOf(durations) / 1e3;
  // SL002 points here to tell an unrecorded GPU from an unused one; without the ops this rule
  // reads, that stays open, and it says so.
  if (ops.empty())
    return sink.notChecked(
        "no conv/matmul ops in the steps: the CPU work that would show the GPU sat unused");
  if (share < options().min_share || median_us < options().min_median_op_us) return;
  const std::string gpu =
      model.metadata.devices.empty() ? std::string("a GPU") : model.metadata.devices.front().name;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "%s is present but no kernel ran: conv/matmul ops compute on the CPU for %.1f ms per step "
      "(%.1f%% of the step, median %.0f µs per op)",
      gpu.c_str(), per_step_ms, 100 * share, median_us);
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.events = sampleEvents(ops);
  for (uint32_t i : d.evidence.events)
    d.evidence.ranges.push_back({model.events[i].start_ns, model.events[i].end_ns()});
  d.evidence.metrics = {{"cpu_compute_ms_per_step", per_step_ms},
                        {"cpu_compute_share", share},
                        {"median_op_us", median_us},
                        {"gpus", static_cast<double>(model.metadata.devices.size())}};
  common::EffectBuilder effect;
  for (uint32_t i : ops) effect.hostEvent(model, i);
  d.saving.method = strf(
      "the conv/matmul ops %.0fx faster on the GPU (assumed); the rest of the step would move too, "
      "so the real change is larger",
      assumed_speedup());
  d.effect = effect.take(1 / assumed_speedup());
  d.fix = {
      "LibTorch: torch::Device device(torch::kCUDA); model->to(device); and move every batch with "
      ".to(device, /*non_blocking=*/true)",
      "Python: model.to(\"cuda\") and batch.to(\"cuda\", non_blocking=True); check torch.cuda.is_available()",
      "if CUDA activity was simply not recorded, profile with ProfilerActivity.CUDA and re-check"};
  d.fingerprint_key = "device-choice";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
