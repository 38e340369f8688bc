#include "gpu_execution/tensor_core_eligible.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "common/kernel_util.h"
#include "gpu_execution/kernel_precision.h"
#include "steplint/analyzer/gpu_summary.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::rules {
namespace {

// tb_plugin tensor_core.py TC_OP_Allowlist, verbatim (pre-1.10 backward names, TB-Q4).
const std::set<std::string_view>& tbEligible() {
  static const std::set<std::string_view> kNames = {
      "aten::_convolution",
      "aten::conv1d",
      "aten::conv2d",
      "aten::conv3d",
      "aten::conv_tbc",
      "aten::conv_transpose1d",
      "aten::conv_transpose2d",
      "aten::conv_transpose3d",
      "aten::convolution",
      "aten::cudnn_convolution",
      "aten::cudnn_convolution_transpose",
      "aten::prelu",
      "aten::addmm",
      "aten::addmv",
      "aten::addr",
      "aten::matmul",
      "aten::mm",
      "aten::mv",
      "aten::linear",
      "aten::addbmm",
      "aten::baddbmm",
      "aten::bmm",
      "aten::chain_matmul",
      "aten::linalg_multi_dot",
      "aten::_thnn_fused_lstm_cell",
      "aten::_thnn_fused_gru_cell",
      "aten::lstm_cell",
      "aten::gru_cell",
      "aten::rnn_tanh_cell",
      "aten::rnn_relu_cell",
      "CudnnConvolutionBackward",
      "BmmBackward0",
      "aten::cudnn_convolution_transpose_backward",
      "CudnnConvolutionTransposeBackward",
      "MmBackward",
      "aten::cudnn_convolution_backward_weight",
      "aten::addmm_",
      "AddmvBackward",
      "MvBackward",
      "aten::cudnn_convolution_transpose_backward_weight",
      "aten::cudnn_convolution_transpose_backward_input",
      "AddmmBackward",
      "aten::cudnn_convolution_backward_input",
      "AddbmmBackward",
      "aten::cudnn_convolution_backward"};
  return kNames;
}

// Names current PyTorch emits for the same work (TB-Q4): numbered autograd nodes, the unified
// convolution backward (1.11+), and fused GEMM variants.
const std::set<std::string_view>& modernEligible() {
  static const std::set<std::string_view> kNames = {"CudnnConvolutionBackward0",
                                                    "CudnnConvolutionTransposeBackward0",
                                                    "ConvolutionBackward0",
                                                    "MmBackward0",
                                                    "AddmvBackward0",
                                                    "MvBackward0",
                                                    "AddmmBackward0",
                                                    "AddbmmBackward0",
                                                    "BaddbmmBackward0",
                                                    "aten::convolution_backward",
                                                    "aten::_addmm_activation",
                                                    "aten::_scaled_dot_product_efficient_attention",
                                                    "aten::_scaled_dot_product_flash_attention",
                                                    "aten::_scaled_dot_product_cudnn_attention",
                                                    "aten::_efficient_attention_backward",
                                                    "aten::_flash_attention_backward"};
  return kNames;
}

bool isOpKind(trace::EventKind k) {
  return k == trace::EventKind::kCpuOp || k == trace::EventKind::kUserAnnotation;
}

// Eligible ops that have an eligible descendant are not "bottom-most" (tb_plugin counts only
// the innermost eligible op's own kernels, so conv2d -> ... -> cudnn_convolution counts once).
std::vector<uint8_t> bottomMostEligible(const trace::TraceModel& model) {
  std::vector<uint8_t> eligible(model.events.size(), 0), has_eligible_child(model.events.size(), 0);
  analyzer::NameMemo eligible_name(model, isTensorCoreEligibleOp);
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::Event& e = model.events[i];
    if (!isOpKind(e.kind) || !eligible_name(e.name)) continue;
    eligible[i] = 1;
    for (uint32_t p = e.parent; p != trace::kNoIndex && !has_eligible_child[p];
         p = model.events[p].parent)
      has_eligible_child[p] = 1;
  }
  for (size_t i = 0; i < eligible.size(); ++i) eligible[i] = eligible[i] && !has_eligible_child[i];
  return eligible;
}

}  // namespace

bool isMatmulKernelName(std::string_view name) {
  static constexpr std::string_view kWords[] = {
      "gemm",  "Gemm", "GEMM",      "gemv",      "scudnn", "convolve",  "fprop",    "dgrad",
      "wgrad", "fmha", "flash_fwd", "flash_bwd", "nvjet",  "attention", "Attention"};
  for (std::string_view w : kWords)
    if (name.find(w) != std::string_view::npos) return true;
  return analyzer::isTensorCoreKernelName(name);
}

bool isGraphLaunchName(std::string_view name) {
  return name.find("GraphLaunch") != std::string_view::npos;
}

bool isTensorCoreEligibleOp(std::string_view name) {
  return tbEligible().count(name) > 0 || modernEligible().count(name) > 0;
}

EligibleKernelTime measureEligibleKernelTime(const trace::TraceModel& model, int64_t start_ns,
                                             int64_t end_ns) {
  const std::vector<uint8_t> bottom = bottomMostEligible(model);
  EligibleKernelTime out;
  std::map<int32_t, int64_t> eligible_by_device;
  analyzer::NameMemo tensor_core_name(model, analyzer::isTensorCoreKernelName);
  analyzer::NameMemo matmul_name(model, isMatmulKernelName);
  analyzer::NameMemo graph_launch(model, isGraphLaunchName);
  KernelPrecisionClassifier precision(model);
  for (const trace::Event& k : model.events) {
    if (k.kind != trace::EventKind::kKernel || k.start_ns < start_ns || k.start_ns >= end_ns)
      continue;
    const bool tc = tensor_core_name(k.name);
    out.all_kernel_ns += k.dur_ns;
    if (tc) out.tc_ns += k.dur_ns;
    const bool replayed = k.link != trace::kNoIndex &&
                          trace::isLaunchApi(model.events[k.link].kind) &&
                          graph_launch(model.events[k.link].name);
    const uint32_t op = replayed ? trace::kNoIndex : launchingOp(model, k);
    if (replayed) {
      out.op_kernel_ns += k.dur_ns;
      out.graph_ns += k.dur_ns;
      if (!matmul_name(k.name)) continue;
      out.graph_eligible_ns += k.dur_ns;
    } else {
      if (op == trace::kNoIndex) continue;
      out.op_kernel_ns += k.dur_ns;
      if (!bottom[op]) continue;
    }
    out.eligible_ns += k.dur_ns;
    eligible_by_device[model.deviceOf(k)] += k.dur_ns;
    if (tc) {
      out.eligible_tc_ns += k.dur_ns;
      out.eligible_tc_kernels.push_back(model.indexOf(k));
    } else if (precision(k, false) == KernelPrecision::kReduced) {
      out.eligible_reduced_ns += k.dur_ns;
      out.eligible_reduced_kernels.push_back(model.indexOf(k));
    } else {
      out.eligible_fp32_kernels.push_back(model.indexOf(k));
      if (replayed) out.graph_eligible_fp32_ns += k.dur_ns;
    }
  }
  int64_t best = -1;
  for (const auto& [device, ns] : eligible_by_device)
    if (ns > best) best = ns, out.main_device = device;
  return out;
}

const EligibleKernelTime& keptStepsEligibleKernelTime(const analyzer::AnalysisContext& context) {
  return context.shared<EligibleKernelTime>("gpu_execution.eligible_kernel_time", [&] {
    const StepWindow window = keptStepWindow(context);
    return measureEligibleKernelTime(context.model(), window.start_ns, window.end_ns);
  });
}

std::optional<EligibleWork> eligibleWork(const analyzer::AnalysisContext& context,
                                         analyzer::DiagnosticSink& sink,
                                         std::string_view hardware) {
  // NVIDIA's kernel names and compute capabilities decide eligibility and precision: on
  // another accelerator the rules that read them cannot decide (SL303, SL305).
  if (!common::requireKnownDevice(context, sink, common::kCudaOnly,
                                  "NVIDIA tensor-core kernel names and compute capabilities"))
    return std::nullopt;
  if (!common::requireGpuActivity(context, sink)) return std::nullopt;
  const trace::TraceModel& model = context.model();
  EligibleWork work;
  work.window = keptStepWindow(context);
  if (model.metadata.devices.empty()) {
    sink.notChecked("no deviceProperties: cannot tell whether the GPU has " +
                    std::string(hardware));
  } else if (work.window.empty()) {
    sink.notChecked("no training steps");
  } else if (work.time = &keptStepsEligibleKernelTime(context); work.time->all_kernel_ns <= 0) {
    sink.notChecked("no kernel time in the steps (the GPU work is copies or memsets)");
  } else if (work.time->op_kernel_ns <= 0) {
    sink.notChecked("no kernel is attributed to a CPU op (launch links missing)");
  } else if (work.device = deviceProperties(model, std::max(0, work.time->main_device));
             !work.device || work.device->compute_major < 0) {
    sink.notChecked(strf("no compute capability recorded for GPU %d", work.time->main_device));
  } else {
    return work;
  }
  return std::nullopt;
}

}  // namespace steplint::rules
