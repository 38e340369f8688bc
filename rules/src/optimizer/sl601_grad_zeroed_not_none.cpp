// SL601 grad-zeroed-not-none: TorchTidy's GradNotSetToNonePattern made trace-based: inside a
// zero_grad range (`Optimizer.zero_grad#...` annotation, a `...: zero_grad` Python frame or a
// C++ `...::zero_grad` scope), `aten::zero_` calls whose parent is not `aten::zeros` (and that
// are not inside another `aten::zero_`) fill each gradient with zeros. Releasing the gradients
// instead (set_to_none) skips one fill kernel per parameter and lets the next backward write
// instead of accumulate. That holds on a GPU, whose caching allocator hands backward the freed
// blocks again; gradients on the CPU go back to the C allocator, and every backward then
// re-allocates them and page-faults the fresh memory in, which costs more than the fill (a
// model of 8 x Linear(1024, 1024) measured 13-14% slower per step): no saving is estimated there.
#include <algorithm>

#include "common/kernel_util.h"
#include "common/shared_data.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  int64_t min_zero_ops_per_step = 1;
};

/// SL601: zero_grad fills gradients with zeros instead of releasing them (TorchTidy
/// GradNotSetToNonePattern).
class GradZeroedNotNoneRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // 0 would flag every step: at least one zero-filled gradient.
  int64_t min_zero_ops_per_step() const {
    return std::max<int64_t>(1, options().min_zero_ops_per_step);
  }
};

}  // namespace

void registerSl601(analyzer::RuleRegistry& registry) {
  registry.add<GradZeroedNotNoneRule>(
      {"SL601", "grad-zeroed-not-none", analyzer::Category::kOptimizer,
       analyzer::Severity::kWarning, true,
       "zero_grad fills every gradient with zeros instead of releasing it"},
      {
          analyzer::option("min-zero-ops-per-step", &Options::min_zero_ops_per_step,
                           "flag when at least this many gradients are zero-filled per step", 1.0),
      });
}

namespace {

bool isZeroGradRange(std::string_view n) {
  return startsWith(n, "Optimizer.zero_grad") || endsWith(n, ": zero_grad") ||
         endsWith(n, "::zero_grad") || n == "zero_grad";
}

enum class GradDevice : uint8_t { kDevice, kCpu, kUnknown };

/// Where the zero-filled gradients live. A fill of a device tensor launches a kernel, so fills
/// that launched none are of CPU tensors when the trace would show their launches: it records
/// launches of other ops, or nothing of a device at all. With a device but no recorded launch
/// (CPU activity only, or the legacy profiler's "CUDA functions" rows) it cannot tell.
GradDevice gradientDevice(const trace::TraceModel& model, bool fills_launched) {
  if (fills_launched) return GradDevice::kDevice;
  if (deviceWorkCalls(model) > 0) return GradDevice::kCpu;
  const bool device_seen =
      !model.metadata.devices.empty() ||
      std::any_of(model.events.begin(), model.events.end(), [](const trace::Event& e) {
        return trace::isDeviceOp(e.kind) || trace::isLaunchApi(e.kind) ||
               e.kind == trace::EventKind::kGpuUserAnnotation;
      });
  return device_seen ? GradDevice::kUnknown : GradDevice::kCpu;
}

}  // namespace

void GradZeroedNotNoneRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  const trace::TraceModel& model = context.model();
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  std::vector<uint8_t> zero_fill(model.events.size(), 0);
  std::vector<uint32_t> zero_ops;
  int64_t cpu_ns = 0;
  bool any_zero_grad = false;
  // Names are interned: id compares equal string compares (-1: the name never occurs).
  analyzer::NameMemo zero_grad_name(model, isZeroGradRange);
  const int64_t zero_id = model.strings.find("aten::zero_"),
                zeros_id = model.strings.find("aten::zeros");
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (!trace::isCpuRange(e.kind)) continue;
    any_zero_grad |= zero_grad_name(e.name);
    if (static_cast<int64_t>(e.name) != zero_id || !window.contains(e.start_ns)) continue;
    if (e.parent != trace::kNoIndex &&
        static_cast<int64_t>(model.events[e.parent].name) == zeros_id)
      continue;
    if (findEnclosing(model, e.parent, [&](const trace::Event& p) {
          return zero_grad_name(p.name);
        }) == trace::kNoIndex)
      continue;
    // PyTorch 1.8 records each gradient's aten::zero_ inside another: one fill, counted once.
    if (findEnclosing(model, e.parent, [&](const trace::Event& p) {
          return static_cast<int64_t>(p.name) == zero_id;
        }) != trace::kNoIndex)
      continue;
    zero_fill[i] = 1;
    zero_ops.push_back(i);
    cpu_ns += e.dur_ns;
  }
  if (!any_zero_grad)
    return sink.notChecked(
        "no zero_grad range in the trace (Optimizer.zero_grad#... annotation or zero_grad frame)");
  const double steps = static_cast<double>(window.count);
  if (static_cast<double>(zero_ops.size()) / steps < static_cast<double>(min_zero_ops_per_step()))
    return;
  int64_t gpu_ns = 0;
  common::EffectBuilder effect;
  for (uint32_t i : zero_ops) effect.hostEvent(model, i);
  auto underFill = [&](uint32_t op) {
    return op != trace::kNoIndex && findEnclosing(model, op, [&](const trace::Event& p) {
                                      return zero_fill[model.indexOf(p)] != 0;
                                    }) != trace::kNoIndex;
  };
  for (const uint32_t index : common::kindIndex(context).device_ops) {
    const trace::Event& k = model.events[index];
    if (!window.contains(k.start_ns) || !underFill(launchingOp(model, k))) continue;
    gpu_ns += k.dur_ns;
    effect.deviceOp(index);
  }
  // Launch calls count too: the kernels themselves may not be recorded.
  bool fills_launched = gpu_ns > 0;
  for (uint32_t i = 0; i < model.events.size() && !fills_launched; ++i) {
    const trace::Event& e = model.events[i];
    fills_launched = trace::isLaunchApi(e.kind) && window.contains(e.start_ns) && underFill(e.link);
  }
  const GradDevice device = gradientDevice(model, fills_launched);
  const double cpu_ms = static_cast<double>(cpu_ns) / steps / 1e6,
               gpu_ms = static_cast<double>(gpu_ns) / steps / 1e6;
  const double per_step = static_cast<double>(zero_ops.size()) / steps;
  analyzer::Diagnostic d = makeDiagnostic();
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.events = sampleEvents(zero_ops);
  for (uint32_t i : d.evidence.events)
    d.evidence.ranges.push_back({model.events[i].start_ns, model.events[i].end_ns()});
  d.evidence.metrics = {
      {"zero_ops_per_step", per_step}, {"host_ms_per_step", cpu_ms}, {"gpu_ms_per_step", gpu_ms}};
  d.fingerprint_key = "zero-grad";
  if (device == GradDevice::kCpu) {
    // Releasing CPU gradients can make the next backward slower than the fill it saves.
    d.severity = analyzer::Severity::kNote;
    d.message = strf(
        "zero_grad fills %.0f CPU gradients per step with aten::zero_ (%.2f ms per step) instead "
        "of setting them to None; on the CPU that is no saving to count on: every backward would "
        "re-allocate them",
        per_step, cpu_ms);
    d.saving.method =
        "not estimated: the gradients live on the CPU (no fill launched device work), where "
        "set_to_none frees them and every backward re-allocates them and page-faults the fresh "
        "memory in, which can cost more than the fill";
    d.fix = {
        "set_to_none (Python: optimizer.zero_grad(set_to_none=True); LibTorch: "
        "optimizer.zero_grad(/*set_to_none=*/true)) only where a measurement shows it faster: on "
        "the CPU it made the steps of an 8 x Linear(1024) model 13-14% slower",
        "code that reads .grad after zero_grad must then handle undefined/None gradients"};
    return sink.report(std::move(d));
  }
  d.message = strf(
      "zero_grad fills %.0f gradients per step with aten::zero_ (%.2f ms host, %.2f ms GPU per step) "
      "instead of setting them to None",
      per_step, cpu_ms, gpu_ms);
  d.saving.method =
      "the aten::zero_ calls and their fill kernels removed (setting a gradient to None costs "
      "next to nothing); the write-instead-of-add in the next backward is not counted";
  if (device == GradDevice::kUnknown)
    d.saving.method +=
        "; assumes the gradients are on the device: the trace records no device work to tell";
  d.effect = effect.take(/*host_factor=*/0, /*device_factor=*/0);
  d.fix = {
      "LibTorch: optimizer.zero_grad(/*set_to_none=*/true) (the default since 2.0); on older LibTorch: "
      "for (auto& p : model->parameters()) p.mutable_grad().reset();",
      "Python: optimizer.zero_grad(set_to_none=True) (the default since 2.0), or model.zero_grad(set_to_none=True)",
      "code that reads .grad after zero_grad must then handle undefined/None gradients"};
  sink.report(std::move(d));
}

}  // namespace steplint::rules
