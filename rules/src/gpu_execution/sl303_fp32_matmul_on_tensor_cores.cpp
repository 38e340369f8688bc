// SL303 fp32-matmul-on-tensor-cores: tb_plugin R6. On a GPU with tensor cores (compute
// capability >= 7.0), a large share of kernel time is launched by tensor-core-eligible ops
// (conv, GEMM) whose kernels are not tensor-core kernels.
#include "common/kernel_util.h"
#include "common/run_metadata.h"
#include "gpu_execution/tensor_core_eligible.h"
#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

namespace {

struct Options {
  double min_eligible_share = 0.1;
  double max_tensor_core_share = 0.5;
  double assumed_speedup = 2.0;
};

/// SL303: conv/matmul work runs FP32 kernels on a GPU with tensor cores (tb_plugin R6, AMP).
class Fp32MatmulOnTensorCoresRule final : public analyzer::RuleWith<Options> {
 public:
  using RuleWith::RuleWith;
  void check(const analyzer::AnalysisContext& context,
             analyzer::DiagnosticSink& sink) const override;

 private:
  // Below 1 a "speedup" would predict a loss: read as 1 (no saving).
  double assumed_speedup() const { return std::max(1.0, options().assumed_speedup); }
};

}  // namespace

void registerSl303(analyzer::RuleRegistry& registry) {
  registry.add<Fp32MatmulOnTensorCoresRule>(
      {"SL303", "fp32-matmul-on-tensor-cores", analyzer::Category::kGpuExecution,
       analyzer::Severity::kWarning, true,
       "conv/matmul kernels run in FP32 on a GPU with tensor cores"},
      {
          analyzer::option(
              "min-eligible-share", &Options::min_eligible_share,
              "flag when eligible ops' non-tensor-core kernels take at least this share of op-launched "
              "kernel time",
              analyzer::kShareBounds),
          analyzer::option(
              "max-tensor-core-share", &Options::max_tensor_core_share,
              "do not flag when more than this share of the eligible ops' kernel time already runs on "
              "tensor cores",
              analyzer::kShareBounds),
          analyzer::option("assumed-speedup", &Options::assumed_speedup,
                           "speedup assumed for the eligible kernels under mixed precision / TF32",
                           analyzer::kSpeedupBounds),
      });
}

namespace {

std::vector<std::string> fixesFor(int major) {
  std::vector<std::string> fix;
  if (major >= 8)
    fix.push_back(
        "Ampere or newer: allow TF32 (LibTorch: at::globalContext().setAllowTF32CuBLAS(true) and "
        "setAllowTF32CuDNN(true); Python: torch.backends.cuda.matmul.allow_tf32 = True or "
        "torch.set_float32_matmul_precision(\"high\")), or better, autocast to bfloat16");
  fix.push_back(
      "LibTorch: enable autocast around the forward pass (at::autocast::set_autocast_enabled(at::kCUDA, "
      "true) in PyTorch >= 2.4, at::autocast::set_enabled(true) before) and scale the loss yourself for "
      "float16 (C++ has no GradScaler); Python: with torch.autocast(\"cuda\", dtype=torch.float16): ... "
      "plus torch.amp.GradScaler");
  fix.push_back(
      "keep channel/feature sizes multiples of 8 so the tensor-core kernels can be chosen");
  return fix;
}

}  // namespace

void Fp32MatmulOnTensorCoresRule::check(const AnalysisContext& context,
                                        DiagnosticSink& sink) const {
  const std::optional<EligibleWork> work = eligibleWork(context, sink, "tensor cores");
  if (!work) return;
  const StepWindow& window = work->window;
  const EligibleKernelTime& t = *work->time;
  const trace::DeviceProperties* dev = work->device;
  if (dev->compute_major < 7) return;  // no tensor cores before Volta
  const double share =
      static_cast<double>(t.eligibleNonTcNs()) / static_cast<double>(t.op_kernel_ns);
  const double eligible_share =
      static_cast<double>(t.eligible_ns) / static_cast<double>(t.op_kernel_ns);
  const double tc_of_eligible =
      t.eligible_ns > 0 ? static_cast<double>(t.eligible_tc_ns) / t.eligible_ns : 0.0;
  // share > 0: a threshold of 0 must not report "0.0% of kernel time".
  if (share <= 0 || share < options().min_eligible_share ||
      tc_of_eligible > options().max_tensor_core_share)
    return;
  const double steps = static_cast<double>(window.count);
  const double fp32_ms = static_cast<double>(t.eligibleNonTcNs()) / steps / 1e6;
  const common::AutocastSetting autocast = common::autocastSetting(context.model().metadata);
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "%.1f%% of kernel time is launched by tensor-core-eligible ops (conv/matmul) running FP32 kernels "
      "without tensor cores on %s (sm_%d%d): %.1f ms per step",
      100 * share, dev->name.empty() ? "the GPU" : dev->name.c_str(), dev->compute_major,
      std::max(0, dev->compute_minor), fp32_ms);
  if (t.graph_eligible_fp32_ns > 0)
    d.message += strf(" (%.1f ms of it replayed by CUDA graphs, judged by kernel name)",
                      static_cast<double>(t.graph_eligible_fp32_ns) / steps / 1e6);
  if (autocast.enabled) d.message += ", although " + autocast.describe() + " was enabled";
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.ranges.push_back({window.start_ns, window.end_ns});
  d.evidence.events = sampleEvents(t.eligible_fp32_kernels);
  d.evidence.metrics = {
      {"eligible_fp32_share", share},
      {"eligible_share", eligible_share},
      {"tensor_core_share_of_eligible", tc_of_eligible},
      {"tensor_core_share_all_kernels",
       t.all_kernel_ns > 0 ? static_cast<double>(t.tc_ns) / t.all_kernel_ns : 0.0},
      {"eligible_fp32_ms_per_step", fp32_ms},
      {"compute_capability", dev->compute_major + 0.1 * std::max(0, dev->compute_minor)}};
  if (autocast.known)
    d.evidence.metrics.emplace_back("autocast_enabled", autocast.enabled ? 1.0 : 0.0);
  if (t.graph_eligible_fp32_ns > 0)
    d.evidence.metrics.emplace_back("graph_replayed_fp32_ms_per_step",
                                    static_cast<double>(t.graph_eligible_fp32_ns) / steps / 1e6);
  common::EffectBuilder effect;
  for (uint32_t k : t.eligible_fp32_kernels) effect.deviceOp(k);
  const double low_speedup = 1 + (assumed_speedup() - 1) / 2;
  d.saving.method =
      strf("the eligible FP32 kernels %.1fx faster on tensor cores (%.1fx at the low end)",
           assumed_speedup(), low_speedup);
  d.effect = effect.take(/*host_factor=*/1, 1 / assumed_speedup(), /*host_factor_worst=*/-1,
                         1 / low_speedup);
  d.fix = fixesFor(dev->compute_major);
  // Autocast was entered, yet these ops ran FP32: they ran outside its region.
  if (autocast.enabled)
    d.fix.insert(
        d.fix.begin(),
        "autocast is enabled but does not reach these ops: run the forward pass and the loss "
        "inside its region, on the tensors' device type (\"cuda\")");
  d.fingerprint_key = strf("gpu%d", t.main_device);
  sink.report(std::move(d));
}

}  // namespace steplint::rules
