#include "steplint/trace/model.h"

#include <algorithm>

namespace steplint::trace {

std::string_view eventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kCpuOp:
      return "cpu_op";
    case EventKind::kUserAnnotation:
      return "user_annotation";
    case EventKind::kGpuUserAnnotation:
      return "gpu_user_annotation";
    case EventKind::kPythonFunction:
      return "python_function";
    case EventKind::kRuntime:
      return "cuda_runtime";
    case EventKind::kDriver:
      return "cuda_driver";
    case EventKind::kKernel:
      return "kernel";
    case EventKind::kMemcpy:
      return "gpu_memcpy";
    case EventKind::kMemset:
      return "gpu_memset";
    case EventKind::kCudaSync:
      return "cuda_sync";
    case EventKind::kCudaEvent:
      return "cuda_event";
    case EventKind::kOverhead:
      return "overhead";
    case EventKind::kSpan:
      return "Trace";
    case EventKind::kOther:
      return "other";
  }
  return "other";
}

std::string_view copyKindName(CopyKind kind) {
  static constexpr std::string_view kNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                                "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  return kNames[static_cast<size_t>(kind)];
}

std::string_view memoryKindName(MemoryKind kind) {
  static constexpr std::string_view kNames[] = {"Unknown",       "Pageable",      "Pinned",
                                                "Device",        "Array",         "Managed",
                                                "Device Static", "Managed Static"};
  return kNames[static_cast<size_t>(kind)];
}

std::string_view acceleratorName(Accelerator accelerator) {
  switch (accelerator) {
    case Accelerator::kNone:
      return "none";
    case Accelerator::kCuda:
      return "CUDA";
    case Accelerator::kRocm:
      return "ROCm";
    case Accelerator::kXpu:
      return "XPU";
    case Accelerator::kMtia:
      return "MTIA";
    case Accelerator::kHpu:
      return "HPU";
    case Accelerator::kPrivateUse1:
      return "PrivateUse1";
    case Accelerator::kOther:
      return "other accelerator";
  }
  return "other accelerator";
}

std::string_view deviceNoun(Accelerator accelerator) {
  switch (accelerator) {
    case Accelerator::kMtia:
      return "MTIA";
    case Accelerator::kHpu:
      return "HPU";
    case Accelerator::kPrivateUse1:
    case Accelerator::kOther:
      return "device";
    case Accelerator::kNone:
    case Accelerator::kCuda:
    case Accelerator::kRocm:
    case Accelerator::kXpu:
      break;
  }
  return "GPU";
}

std::pair<int64_t, int64_t> TraceModel::timeRange() const {
  if (events.empty()) return {0, 0};
  int64_t lo = events.front().start_ns, hi = events.front().end_ns();
  for (const Event& e : events) {
    lo = std::min(lo, e.start_ns);
    hi = std::max(hi, e.end_ns());
  }
  return {lo, hi};
}

const CollectiveDetail* TraceModel::collective(const Event& e) const {
  if (e.detail == kNoIndex || collectives.empty()) return nullptr;
  const bool on_device = !isCpuRange(e.kind);
  const auto it =
      std::lower_bound(collectives.begin(), collectives.end(), std::make_pair(on_device, e.detail),
                       [](const CollectiveDetail& c, const std::pair<bool, uint32_t>& key) {
                         return std::make_pair(c.on_device, c.owner) < key;
                       });
  return it != collectives.end() && it->on_device == on_device && it->owner == e.detail ? &*it
                                                                                        : nullptr;
}

int32_t TraceModel::deviceOf(const Event& e) const {
  if (const GpuDetail* g = gpu(e); g && g->device >= 0) return g->device;
  return static_cast<int32_t>(tracks[e.track].pid);
}

}  // namespace steplint::trace
