// Run metadata from LibTorch: version, intra-op threads, cuDNN and TF32 flags, CUDA presence.
// Written as top-level trace keys; SL304 reads `cudnn_benchmark` (JSON true/false).
//
// Kept apart from torch_hooks.cpp so the callback TU stays small; needs only ATen headers
// (no torch/torch.h, docs/reference/toolchain.md §8).
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <torch/version.h>  // TORCH_VERSION, from torch/csrc/api/include in 1.13 and 2.x

#include <string>

#include "recorder.h"
#include "torch_hooks.h"

namespace steplint::collector::torch_hooks {
namespace {

const char* jsonBool(bool b) { return b ? "true" : "false"; }

std::string jsonString(const char* text) {
  std::string out = "\"";
  for (const char* p = text; *p != '\0'; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    out += *p;
  }
  return out + "\"";
}

}  // namespace

void describeTorchRuntime() noexcept {
  try {
    setMetadata("torch_version", jsonString(TORCH_VERSION));
    setMetadata("intra_op_threads", std::to_string(at::get_num_threads()));
    at::Context& context = at::globalContext();
    setMetadata("cudnn_benchmark", jsonBool(context.benchmarkCuDNN()));
    setMetadata("cudnn_deterministic", jsonBool(context.deterministicCuDNN()));
    setMetadata("allow_tf32_cublas", jsonBool(context.allowTF32CuBLAS()));
    setMetadata("allow_tf32_cudnn", jsonBool(context.allowTF32CuDNN()));
    // at::hasCUDA(): built with CUDA, hooks loaded and at least one device (no torch/cuda.h).
    setMetadata("cuda_available", jsonBool(at::hasCUDA()));
  } catch (...) {  // a torch error here must not stop the session (docs/reference/style.md §2.9)
    reportSourceStatus("torch", "metadata incomplete: reading torch's global context failed");
  }
}

}  // namespace steplint::collector::torch_hooks
