// SL305 fp32-training-without-autocast: on a GPU with bfloat16 tensor cores (sm_80+), the
// conv/matmul kernels run in 32-bit precision — FP32, or TF32 that cuDNN allows by default for
// convolutions — and nothing in the trace shows autocast. SL303 only sees kernels that miss the
// tensor cores; TF32 ones still run at half the bfloat16 rate (issue 13: autocast saved 10 %
// of a step whose convolutions were all TF32).
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "common/kernel_util.h"
#include "common/run_metadata.h"
#include "common/shared_data.h"
#include "gpu_execution/kernel_precision.h"
#include "gpu_execution/tensor_core_eligible.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  double min_share = 0.1;
  double max_reduced_share = 0.2;
  double assumed_speedup = 2.0;
};

/// SL305: conv/matmul work runs in 32-bit precision (FP32, or TF32 on tensor cores) with no
/// autocast on a GPU with bfloat16 tensor cores (issue 13).
class Fp32TrainingWithoutAutocastRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // Below 1 a "speedup" would predict a loss: read as 1 (no saving).
  double assumed_speedup() const { return std::max(1.0, options().assumed_speedup); }
};

}  // namespace

void registerSl305(analyzer::RuleRegistry& registry) {
  registry.add<Fp32TrainingWithoutAutocastRule>(
      {"SL305", "fp32-training-without-autocast", analyzer::Category::kGpuExecution,
       analyzer::Severity::kWarning, true,
       "conv/matmul kernels run in FP32/TF32 without autocast on a GPU with bf16 "
       "tensor cores"},
      {
          analyzer::option(
              "min-share", &Options::min_share,
              "flag when FP32/TF32 conv/matmul kernels take at least this share of op-launched kernel "
              "time",
              analyzer::kShareBounds),
          analyzer::option(
              "max-reduced-share", &Options::max_reduced_share,
              "do not flag when more than this share of the conv/matmul kernel time of known precision is already "
              "16-bit (autocast or a half model)",
              analyzer::kShareBounds),
          analyzer::option("assumed-speedup", &Options::assumed_speedup,
                           "speedup assumed for the FP32/TF32 kernels in bfloat16",
                           analyzer::kSpeedupBounds),
      });
}

namespace {

/// The eligible kernels of the kept steps by precision.
struct PrecisionSplit {
  std::array<int64_t, 4> ns{};         // by KernelPrecision
  std::vector<uint32_t> wide_kernels;  // FP32 and TF32, in event order
  int64_t at(KernelPrecision p) const { return ns[static_cast<size_t>(p)]; }
  int64_t wideNs() const { return at(KernelPrecision::kFp32) + at(KernelPrecision::kTf32); }
};

PrecisionSplit splitByPrecision(const trace::TraceModel& model, const EligibleKernelTime& t) {
  PrecisionSplit out;
  KernelPrecisionClassifier precision(model);
  auto add = [&](uint32_t index, bool tensor_core) {
    const trace::Event& k = model.events[index];
    const KernelPrecision p = precision(k, tensor_core);
    out.ns[static_cast<size_t>(p)] += k.dur_ns;
    if (p == KernelPrecision::kFp32 || p == KernelPrecision::kTf32)
      out.wide_kernels.push_back(index);
  };
  for (uint32_t k : t.eligible_fp32_kernels) add(k, false);
  for (uint32_t k : t.eligible_reduced_kernels) add(k, false);
  for (uint32_t k : t.eligible_tc_kernels) add(k, true);
  std::sort(out.wide_kernels.begin(), out.wide_kernels.end());
  return out;
}

bool mentionsAutocast(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return lower.find("autocast") != std::string::npos;
}

/// A CPU range inside the steps that shows autocast: torch.autocast's Python frames
/// (torch/amp/autocast_mode.py), aten::_autocast_to_reduced_precision, a user annotation.
bool autocastInSteps(const AnalysisContext& context, const StepWindow& window) {
  const trace::TraceModel& model = context.model();
  analyzer::NameMemo is_autocast(model, mentionsAutocast);
  const common::KindIndex& kinds = common::kindIndex(context);
  for (trace::EventKind kind : {trace::EventKind::kCpuOp, trace::EventKind::kUserAnnotation,
                                trace::EventKind::kPythonFunction})
    for (uint32_t i : kinds.of(kind))
      if (window.contains(model.events[i].start_ns) && is_autocast(model.events[i].name))
        return true;
  return false;
}

std::vector<std::string> autocastFixes() {
  return {
      "LibTorch: run the forward pass and the loss under bfloat16 autocast: "
      "at::autocast::set_autocast_enabled(at::kCUDA, true) and at::autocast::set_autocast_dtype(at::kCUDA, "
      "at::kBFloat16) (PyTorch >= 2.4; at::autocast::set_enabled / set_autocast_gpu_dtype before), then disable "
      "it and call at::autocast::clear_cache() before backward",
      "Python: with torch.autocast(\"cuda\", dtype=torch.bfloat16): loss = criterion(model(x), y) — bfloat16 "
      "keeps FP32's exponent range and needs no GradScaler",
      "weights and optimizer state stay FP32 under autocast; compare the loss curve once against the FP32 run"};
}

/// Autocast is on, yet these kernels stayed 32-bit: what autocast does not reach.
std::vector<std::string> autocastRegionFixes() {
  return {
      "autocast changes only the ops that run inside its region: put the whole forward pass and the loss inside "
      "with torch.autocast(\"cuda\", dtype=torch.bfloat16) (LibTorch: between set_autocast_enabled(at::kCUDA, "
      "true) and false)",
      "inside the region, ops on autocast's float32 list, tensors cast back with .float() and custom CUDA "
      "extensions stay 32-bit; a torch.autocast(\"cpu\") region does not change CUDA ops",
      "weights and optimizer state stay FP32 under autocast; compare the loss curve once against the FP32 run"};
}

}  // namespace

void Fp32TrainingWithoutAutocastRule::check(const AnalysisContext& context,
                                            DiagnosticSink& sink) const {
  const std::optional<EligibleWork> work = eligibleWork(context, sink, "bfloat16 tensor cores");
  if (!work) return;
  const trace::TraceModel& model = context.model();
  const StepWindow& window = work->window;
  const EligibleKernelTime& t = *work->time;
  const trace::DeviceProperties* dev = work->device;
  // Volta/Turing have no TF32 and no bfloat16: their 32-bit conv/matmul kernels all miss the
  // tensor cores, which is SL303's finding, and its fix there is fp16 autocast.
  if (dev->compute_major < 8) return;
  const PrecisionSplit split = splitByPrecision(model, t);
  const int64_t wide_ns = split.wideNs();
  const int64_t known_ns = wide_ns + split.at(KernelPrecision::kReduced);
  const double share = static_cast<double>(wide_ns) / static_cast<double>(t.op_kernel_ns);
  const double reduced_share =
      known_ns > 0 ? static_cast<double>(split.at(KernelPrecision::kReduced)) / known_ns : 0;
  // share > 0: a threshold of 0 must not report "0.0% of kernel time".
  if (share <= 0 || share < options().min_share || reduced_share > options().max_reduced_share)
    return;
  // The import hook's record beats names: it sees every torch.autocast region, with or without
  // Python frames, so with it the kernels that stayed 32-bit under autocast are reported too.
  const common::AutocastSetting autocast = common::autocastSetting(model.metadata);
  if (!autocast.known && autocastInSteps(context, window)) return;

  const double steps = static_cast<double>(window.count);
  auto perStepMs = [&](int64_t ns) { return static_cast<double>(ns) / steps / 1e6; };
  const double tf32_ms = perStepMs(split.at(KernelPrecision::kTf32));
  const double fp32_ms = perStepMs(split.at(KernelPrecision::kFp32));
  analyzer::Diagnostic d = makeDiagnostic();
  const std::string why =
      autocast.enabled ? " although " + autocast.describe() + " was enabled," : " with no autocast";
  d.message = strf(
      "%.1f%% of kernel time is conv/matmul in 32-bit precision%s on %s (sm_%d%d): %.1f ms per step, %.1f ms of it "
      "TF32 on tensor cores and %.1f ms FP32 without",
      100 * share, why.c_str(), dev->name.empty() ? "the GPU" : dev->name.c_str(),
      dev->compute_major, std::max(0, dev->compute_minor), tf32_ms + fp32_ms, tf32_ms, fp32_ms);
  if (autocast.known && !autocast.enabled)
    d.message += " (the Python import hook saw no enabled torch.autocast)";
  if (t.graph_eligible_ns > 0)
    d.message += strf(
        "; conv/matmul kernels replayed by CUDA graphs (%.1f ms per step) are judged "
        "by kernel name",
        perStepMs(t.graph_eligible_ns));
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.ranges.push_back({window.start_ns, window.end_ns});
  d.evidence.events = sampleEvents(split.wide_kernels);
  d.evidence.metrics = {
      {"fp32_tf32_share", share},
      {"tf32_ms_per_step", tf32_ms},
      {"fp32_ms_per_step", fp32_ms},
      {"reduced_share_of_known", reduced_share},
      {"unknown_precision_ms_per_step", perStepMs(split.at(KernelPrecision::kUnknown))},
      {"compute_capability", dev->compute_major + 0.1 * std::max(0, dev->compute_minor)}};
  if (autocast.known)
    d.evidence.metrics.emplace_back("autocast_enabled", autocast.enabled ? 1.0 : 0.0);
  if (t.graph_eligible_ns > 0)
    d.evidence.metrics.emplace_back("graph_replayed_ms_per_step", perStepMs(t.graph_eligible_ns));
  // Worse is more 32-bit matmul time, TF32 or not (tf32_ms_per_step alone is 0 on FP32 runs).
  d.evidence.size_metric = "fp32_tf32_share";
  common::EffectBuilder effect;
  for (uint32_t k : split.wide_kernels) effect.deviceOp(k);
  const double low_speedup = 1 + (assumed_speedup() - 1) / 2;
  d.saving.method = strf(
      "the FP32/TF32 conv/matmul kernels %.1fx faster in bfloat16 (%.1fx at the low end); for FP32 kernels without "
      "tensor cores this comes on top of reaching them, SL303's share",
      assumed_speedup(), low_speedup);
  d.effect = effect.take(/*host_factor=*/1, 1 / assumed_speedup(), /*host_factor_worst=*/-1,
                         1 / low_speedup);
  d.fix = autocast.enabled ? autocastRegionFixes() : autocastFixes();
  d.fingerprint_key = strf("gpu%d", t.main_device);
  sink.report(std::move(d));
}

}  // namespace steplint::rules
