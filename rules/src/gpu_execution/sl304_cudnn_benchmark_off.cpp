// SL304 cudnn-benchmark-off: DLProf's "convolutions detected but cudnn.benchmark not enabled".
// Whether cuDNN autotuning is on cannot be read from kernels (the autotuning runs happen once,
// usually before the profiled steps), so the rule decides only from recorded configuration:
// a top-level trace metadata key `cudnn_benchmark` (also `torch.backends.cudnn.benchmark`,
// `steplint_cudnn_benchmark`). Without it the rule reports "not checked".
#include <algorithm>
#include <cctype>
#include <map>

#include "common/kernel_util.h"
#include "common/run_metadata.h"
#include "common/shared_data.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  double assumed_gain = 0.1;
};

/// SL304: convolutions with fixed shapes every step while cudnn.benchmark is recorded as off.
class CudnnBenchmarkOffRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // A share of the convolution time: 0 to 1.
  double assumed_gain() const { return std::clamp(options().assumed_gain, 0.0, 1.0); }
};

}  // namespace

void registerSl304(analyzer::RuleRegistry& registry) {
  registry.add<CudnnBenchmarkOffRule>(
      {"SL304", "cudnn-benchmark-off", analyzer::Category::kGpuExecution,
       analyzer::Severity::kWarning, true,
       "fixed-shape convolutions run with cuDNN autotuning off"},
      {
          analyzer::option("assumed-gain", &Options::assumed_gain,
                           "share of convolution kernel time assumed saved by autotuned algorithms",
                           analyzer::kShareBounds),
      });
}

namespace {

enum class Recorded { kAbsent, kOn, kOff };

Recorded recordedBenchmark(const trace::TraceMetadata& meta) {
  for (const auto& [key, raw] : meta.extra) {
    if (key != "cudnn_benchmark" && key != "torch.backends.cudnn.benchmark" &&
        key != "steplint_cudnn_benchmark")
      continue;
    std::string v;
    for (char c : raw)
      if (c != '"' && c != ' ') v += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (v == "true" || v == "1") return Recorded::kOn;
    if (v == "false" || v == "0") return Recorded::kOff;
  }
  return Recorded::kAbsent;
}

bool isConvName(std::string_view n) {
  return n.find("convolution") != std::string_view::npos || startsWith(n, "aten::conv");
}

}  // namespace

void CudnnBenchmarkOffRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (!common::requireKnownDevice(context, sink, common::kCudaAndRocm,
                                  "the cudnn.benchmark setting (cuDNN, MIOpen)"))
    return;
  const trace::TraceModel& model = context.model();
  if (!common::requireGpuActivity(context, sink)) return;
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  // Forward convolutions per step, keyed by recorded input shapes; conv kernel time (fwd + bwd).
  std::map<int, std::vector<trace::StringId>> shapes_by_step;
  std::vector<uint32_t> conv_ops;
  bool missing_shapes = false;
  // Names are interned: comparing ids equals comparing the strings (-1: no such name at all).
  const int64_t conv_id = model.strings.find("aten::convolution");
  const common::KindIndex& kinds = common::kindIndex(context);
  for (const uint32_t i : kinds.of(trace::EventKind::kCpuOp)) {
    const trace::Event& e = model.events[i];
    if (static_cast<int64_t>(e.name) != conv_id) continue;
    // A CPU op belongs to the ProfilerStep it runs in, not to the step extended over it.
    const int step = common::hostStepAt(context, e.start_ns);
    if (step < 0) continue;
    const trace::OpDetail* op = model.op(e);
    missing_shapes |= !op || op->input_dims == 0;
    shapes_by_step[step].push_back(op ? op->input_dims : 0);
    conv_ops.push_back(i);
  }
  if (conv_ops.empty()) return;  // no convolutions: nothing to tune
  int64_t conv_kernel_ns = 0;
  common::EffectBuilder effect;
  analyzer::NameMemo conv_name(model, isConvName);
  for (const uint32_t i : kinds.of(trace::EventKind::kKernel)) {
    const trace::Event& k = model.events[i];
    if (!window.contains(k.start_ns)) continue;
    const uint32_t op = launchingOp(model, k);
    if (op != trace::kNoIndex && findEnclosing(model, op, [&](const trace::Event& e) {
                                   return trace::isCpuRange(e.kind) && conv_name(e.name);
                                 }) != trace::kNoIndex) {
      conv_kernel_ns += k.dur_ns;
      effect.deviceOp(i);
    }
  }
  const Recorded recorded = recordedBenchmark(model.metadata);
  if (recorded == Recorded::kAbsent)
    return sink.notChecked(
        "the trace does not record torch.backends.cudnn.benchmark (add trace metadata "
        "\"cudnn_benchmark\"); autotuning cannot be seen in kernels after warm-up");
  if (recorded == Recorded::kOn) return;
  if (missing_shapes && model.metadata.legacy_profiler_export)
    return sink.notChecked(common::legacyExportLacks(model.metadata, "input shapes",
                                                     "record_shapes", "steplint record --shapes"));
  if (missing_shapes)
    return sink.notChecked("convolution input shapes not recorded (record_shapes)");
  if (shapes_by_step.size() < 2)
    return sink.notChecked("fewer than two steps with convolutions: shapes may vary");
  for (auto& [step, shapes] : shapes_by_step) std::sort(shapes.begin(), shapes.end());
  for (const auto& [step, shapes] : shapes_by_step)
    if (shapes != shapes_by_step.begin()->second) return;  // shapes change: autotuning would re-run
  const double steps = static_cast<double>(window.count);
  const double conv_ms = static_cast<double>(conv_kernel_ns) / steps / 1e6;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "cudnn.benchmark is off while %zu convolutions per step repeat the same input shapes every step "
      "(%.1f ms of convolution kernels per step)",
      shapes_by_step.begin()->second.size(), conv_ms);
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.ranges.push_back({window.start_ns, window.end_ns});
  d.evidence.events = sampleEvents(conv_ops);
  d.evidence.metrics = {
      {"convolutions_per_step", static_cast<double>(shapes_by_step.begin()->second.size())},
      {"conv_kernel_ms_per_step", conv_ms}};
  d.saving.method = strf(
      "the convolution kernels %.0f%% shorter (assumed; autotuned algorithms typically gain 0-30%% "
      "for fixed shapes, so the low end is no gain)",
      100 * assumed_gain());
  d.effect = effect.take(/*host_factor=*/1, 1 - assumed_gain(), /*host_factor_worst=*/-1,
                         /*device_factor_worst=*/1);
  d.fix = {
      "LibTorch: at::globalContext().setBenchmarkCuDNN(true) once before training; "
      "Python: torch.backends.cudnn.benchmark = True",
      "keep input shapes fixed (pad or bucket variable sizes), otherwise every new shape is re-tuned"};
  d.fingerprint_key = "convolutions";
  sink.report(std::move(d));
}

}  // namespace steplint::rules
