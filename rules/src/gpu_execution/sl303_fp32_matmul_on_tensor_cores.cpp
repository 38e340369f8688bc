// SL303 fp32-matmul-on-tensor-cores: tb_plugin R6. On a GPU with tensor cores (compute
// capability >= 7.0), a large share of kernel time is launched by tensor-core-eligible ops
// (conv, GEMM) whose kernels are not tensor-core kernels.
#include "gpu_execution/sl303_fp32_matmul_on_tensor_cores.h"

#include "common/kernel_util.h"
#include "gpu_execution/tensor_core_eligible.h"

namespace steplint::rules {

using analyzer::AnalysisContext;
using analyzer::DiagnosticSink;

const analyzer::RuleInfo& Fp32MatmulOnTensorCoresRule::info() const {
  static const analyzer::RuleInfo kInfo{"SL303",
                                        "fp32-matmul-on-tensor-cores",
                                        analyzer::Category::kGpuExecution,
                                        analyzer::Severity::kWarning,
                                        true,
                                        "conv/matmul kernels run in FP32 on a GPU with tensor cores"};
  return kInfo;
}

std::vector<analyzer::OptionSpec> Fp32MatmulOnTensorCoresRule::options() const {
  return {{"min-eligible-share", 0.1,
           "flag when eligible ops' non-tensor-core kernels take at least this share of op-launched kernel time"},
          {"max-tensor-core-share", 0.5,
           "do not flag when more than this share of the eligible ops' kernel time already runs on tensor cores"},
          {"assumed-speedup", 2.0, "speedup assumed for the eligible kernels under mixed precision / TF32"}};
}

void Fp32MatmulOnTensorCoresRule::configure(const analyzer::RuleOptions& options) {
  min_eligible_share_ = options.number("min-eligible-share", 0.1);
  max_tensor_core_share_ = options.number("max-tensor-core-share", 0.5);
  assumed_speedup_ = std::max(1.0, options.number("assumed-speedup", 2.0));
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
  fix.push_back("keep channel/feature sizes multiples of 8 so the tensor-core kernels can be chosen");
  return fix;
}

}  // namespace

void Fp32MatmulOnTensorCoresRule::check(const AnalysisContext& context, DiagnosticSink& sink) const {
  if (!common::requireKnownDevice(context, sink, common::kCudaOnly,
                                  "NVIDIA tensor-core kernel names and compute capabilities"))
    return;
  const trace::TraceModel& model = context.model();
  if (!context.hasGpuActivity()) return sink.notChecked("no GPU activity in the trace");
  if (model.metadata.devices.empty())
    return sink.notChecked("no deviceProperties: cannot tell whether the GPU has tensor cores");
  const StepWindow window = keptStepWindow(context);
  if (window.empty()) return sink.notChecked("no training steps");
  const EligibleKernelTime t = measureEligibleKernelTime(model, window.start_ns, window.end_ns);
  if (t.op_kernel_ns <= 0) return sink.notChecked("no kernel is attributed to a CPU op (launch links missing)");
  const trace::DeviceProperties* dev = deviceProperties(model, t.main_device >= 0 ? t.main_device : 0);
  if (!dev || dev->compute_major < 0)
    return sink.notChecked(strf("no compute capability recorded for GPU %d", t.main_device));
  if (dev->compute_major < 7) return;  // no tensor cores before Volta
  const double share = static_cast<double>(t.eligibleNonTcNs()) / static_cast<double>(t.op_kernel_ns);
  const double eligible_share = static_cast<double>(t.eligible_ns) / static_cast<double>(t.op_kernel_ns);
  const double tc_of_eligible = t.eligible_ns > 0 ? static_cast<double>(t.eligible_tc_ns) / t.eligible_ns : 0.0;
  if (share < min_eligible_share_ || tc_of_eligible > max_tensor_core_share_) return;
  const double steps = static_cast<double>(window.count);
  const double fp32_ms = static_cast<double>(t.eligibleNonTcNs()) / steps / 1e6;
  analyzer::Diagnostic d = makeDiagnostic();
  d.message = strf(
      "%.1f%% of kernel time is launched by tensor-core-eligible ops (conv/matmul) running FP32 kernels "
      "without tensor cores on %s (sm_%d%d): %.1f ms per step",
      100 * share, dev->name.empty() ? "the GPU" : dev->name.c_str(), dev->compute_major,
      std::max(0, dev->compute_minor), fp32_ms);
  d.evidence.steps = keptStepNumbers(context);
  d.evidence.ranges.push_back({window.start_ns, window.end_ns});
  d.evidence.events = sampleEvents(t.eligible_fp32_kernels);
  d.evidence.metrics = {
      {"eligible_fp32_share", share},
      {"eligible_share", eligible_share},
      {"tensor_core_share_of_eligible", tc_of_eligible},
      {"tensor_core_share_all_kernels", t.all_kernel_ns > 0 ? static_cast<double>(t.tc_ns) / t.all_kernel_ns : 0.0},
      {"eligible_fp32_ms_per_step", fp32_ms},
      {"compute_capability", dev->compute_major + 0.1 * std::max(0, dev->compute_minor)}};
  common::EffectBuilder effect;
  for (uint32_t k : t.eligible_fp32_kernels) effect.deviceOp(k);
  const double low_speedup = 1 + (assumed_speedup_ - 1) / 2;
  d.saving.method = strf("the eligible FP32 kernels %.1fx faster on tensor cores (%.1fx at the low end)",
                         assumed_speedup_, low_speedup);
  d.effect = effect.take(/*host_factor=*/1, 1 / assumed_speedup_, /*host_factor_worst=*/-1, 1 / low_speedup);
  d.fix = fixesFor(dev->compute_major);
  d.fingerprint_key = strf("gpu%d", t.main_device);
  sink.report(std::move(d));
}

}  // namespace steplint::rules
