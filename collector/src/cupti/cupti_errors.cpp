#include "cupti/cupti_errors.h"

#include <cstdio>

namespace steplint::collector {

std::string cuptiCodeText(CUptiResult code) {
  const char* name = nullptr;
  // cuptiGetResultString works without a driver (docs/reference/toolchain.md §4.3).
  if (cuptiGetResultString(code, &name) != CUPTI_SUCCESS || name == nullptr) name = "CUPTI_ERROR_?";
  return std::string(name) + " (" + std::to_string(static_cast<int>(code)) + ")";
}

CUptiResult checkCupti(CUptiResult code, const char* call, std::atomic<bool>* logged) noexcept {
  if (code == CUPTI_SUCCESS) return code;
  if (logged != nullptr && !logged->exchange(true, std::memory_order_relaxed)) {
    try {
      std::fprintf(stderr, "steplint: cupti: %s failed: %s\n", call, cuptiCodeText(code).c_str());
    } catch (...) {
      // std::string allocation failed: nothing sensible left to report.
    }
  }
  return code;
}

bool isFatalStartCode(CUptiResult code) {
  switch (code) {
    case CUPTI_ERROR_UNKNOWN:
    case CUPTI_ERROR_NOT_INITIALIZED:
    case CUPTI_ERROR_INVALID_DEVICE:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_HARDWARE_BUSY:
      return true;
    default:
      return false;
  }
}

namespace {

const char* causeOf(CUptiResult code) {
  switch (code) {
    case CUPTI_ERROR_UNKNOWN:
    case CUPTI_ERROR_NOT_INITIALIZED:
    case CUPTI_ERROR_INVALID_DEVICE:
      // Without libcuda.so.1 (or with a driver older than the toolkit) CUPTI answers 999.
      return "no usable NVIDIA driver or GPU";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_HARDWARE_BUSY:
      return "another profiler (torch.profiler/Kineto, Nsight Systems or Nsight Compute) already "
             "uses CUPTI";
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "no permission to profile the GPU (driver setting RmProfilingAdminOnly; run as root "
             "or set NVreg_RestrictProfilingToAdminUsers=0)";
    default:
      return "CUPTI refused to trace";
  }
}

}  // namespace

std::string startFailureText(CUptiResult code) {
  return cuptiCodeText(code) + ": " + causeOf(code) + "; recording CPU-side only";
}

std::string checkCuptiVersion(uint32_t runtime_version, uint32_t built_version, bool* fatal) {
  *fatal = false;
  if (runtime_version >= built_version) return {};
  // CUDA 13 encodes the CUPTI API version as MMmmpp (130001); CUDA 12 used small integers
  // (18 ... 26). A different major means different record layouts: refuse. A lower minor of
  // the same major has the same layouts: go on, but say so.
  *fatal = runtime_version / 10000 != built_version / 10000;
  return "libcupti reports API version " + std::to_string(runtime_version) +
         ", steplint was built with " + std::to_string(built_version) +
         (*fatal ? ": load the libcupti of the toolkit steplint was built with "
                   "(check LD_LIBRARY_PATH and the nvidia-cuda-cupti wheel)"
                 : ": older minor version, continuing");
}

}  // namespace steplint::collector
