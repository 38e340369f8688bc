// Run metadata from LibTorch: version, intra-op threads, cuDNN and TF32 flags, CUDA presence.
// Written as top-level trace keys; SL304 reads `cudnn_benchmark` (JSON true/false).
//
// Kept apart from torch_hooks.cpp so the callback TU stays small; needs only ATen headers
// (no torch/torch.h, docs/reference/toolchain.md §8).
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <torch/version.h>  // TORCH_VERSION, from torch/csrc/api/include in 1.13 and 2.x

#include <exception>
#include <string>

#include "recorder.h"
#include "torch_hooks.h"

namespace steplint::collector::torch_hooks {
namespace {

std::string jsonBool(bool b) { return b ? "true" : "false"; }

std::string jsonString(const char* text) {
  std::string out = "\"";
  for (const char* p = text; *p != '\0'; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    out += *p;
  }
  return out + "\"";
}

}  // namespace

void describeTorchRuntime(bool report_status) noexcept {
  // Each value on its own: torch 2.9+ throws from allowTF32CuBLAS() while the legacy and the new
  // TF32 settings disagree (seen during `import torch` on 2.11), and one such value must not
  // cost the others. Each reading replaces the last (start, step boundaries, stop).
  std::string failed;
  auto put = [&](const char* key, auto&& read) {
    try {
      setMetadata(key, read());
    } catch (const std::exception& error) {
      // The first line of a torch message is enough; the rest is its C++ stack.
      const std::string what = error.what();
      failed +=
          std::string(failed.empty() ? "" : "; ") + key + ": " + what.substr(0, what.find('\n'));
    } catch (...) {
      failed += std::string(failed.empty() ? "" : "; ") + key;
    }
  };
  put("torch_version", [] { return jsonString(TORCH_VERSION); });
  put("intra_op_threads", [] { return std::to_string(at::get_num_threads()); });
  put("cudnn_benchmark", [] { return jsonBool(at::globalContext().benchmarkCuDNN()); });
  put("cudnn_deterministic", [] { return jsonBool(at::globalContext().deterministicCuDNN()); });
  put("allow_tf32_cublas", [] { return jsonBool(at::globalContext().allowTF32CuBLAS()); });
  put("allow_tf32_cudnn", [] { return jsonBool(at::globalContext().allowTF32CuDNN()); });
  // at::hasCUDA(): built with CUDA, hooks loaded and at least one device (no torch/cuda.h).
  put("cuda_available", [] { return jsonBool(at::hasCUDA()); });
  if (report_status)
    reportSourceStatus("torch",
                       failed.empty() ? "recording" : "recording; metadata incomplete: " + failed);
}

}  // namespace steplint::collector::torch_hooks
