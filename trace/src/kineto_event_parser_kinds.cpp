// Event kinds from Kineto categories and device-op names, for every back-end Kineto records
// (docs/reference/trace-format.md §6, §7.5): what the parser needs to tell launch calls, kernels,
// copies and fills apart before the trace's accelerator is known.
#include "kineto_event_parser.h"

#include <iterator>
#include <utility>

namespace steplint::trace {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool iendsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

bool istartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// MTIA's one device category holds compute jobs and DMA transfers alike.
constexpr std::string_view kMtiaDeviceCategory = "mtia_ccp_events";

// "Memcpy HtoD (Pageable -> Device)" / "Memset (Device)": the memory kinds are only in the name.
MemoryKind memoryKindFromName(std::string_view s) {
  static constexpr std::pair<std::string_view, MemoryKind> kKinds[] = {
      {"Pageable", MemoryKind::kPageable},
      {"Pinned", MemoryKind::kPinned},
      {"Device Static", MemoryKind::kDeviceStatic},
      {"Managed Static", MemoryKind::kManagedStatic},
      {"Device", MemoryKind::kDevice},
      {"Array", MemoryKind::kArray},
      {"Managed", MemoryKind::kManaged}};
  // XPU (PTI) writes the kinds in capitals: "Memcpy D2D (DEVICE -> DEVICE)".
  for (const auto& [name, kind] : kKinds)
    if (iequals(s, name)) return kind;
  return MemoryKind::kUnknown;
}

CopyKind copyKindFromName(std::string_view s) {
  static constexpr std::string_view kNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                                "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (s == kNames[i]) return static_cast<CopyKind>(i);
  // XPU (PTI) spells the directions H2D, D2H, D2D, H2H.
  static constexpr std::pair<std::string_view, CopyKind> kPtiNames[] = {{"H2D", CopyKind::kHtoD},
                                                                        {"D2H", CopyKind::kDtoH},
                                                                        {"D2D", CopyKind::kDtoD},
                                                                        {"H2H", CopyKind::kHtoH}};
  for (const auto& [name, kind] : kPtiNames)
    if (s == name) return kind;
  return CopyKind::kUnknown;
}

}  // namespace

EventKind eventKindFromCategory(std::string_view c) {
  if (iequals(c, "cpu_op") || iequals(c, "operator")) return EventKind::kCpuOp;
  if (c == "user_annotation") return EventKind::kUserAnnotation;
  if (c == "gpu_user_annotation") return EventKind::kGpuUserAnnotation;
  // Device work of every back-end (docs/reference/trace-format.md §6): CUPTI, ROCm and XPU write
  // kernel / gpu_memcpy / gpu_memset; MTIA writes mtia_ccp_events (split by name below,
  // deviceKindFromName); Cambricon and Enflame prefix their own (mlu_memcpy, GCU_MEMSET).
  if (iequals(c, "kernel") || c == kMtiaDeviceCategory) return EventKind::kKernel;
  if (iequals(c, "memcpy") || iendsWith(c, "_memcpy")) return EventKind::kMemcpy;
  if (iequals(c, "memset") || iendsWith(c, "_memset")) return EventKind::kMemset;
  // Launch APIs: cuda_runtime (also ROCm's hip* calls), mtia_runtime, xpu_runtime,
  // privateuse1_runtime ..., Kineto >= 2025's accelerator-neutral runtime / driver, and Gaudi's
  // hpu_op (host-side runtime calls, an alias of RUNTIME in ActivityType.h).
  if (iequals(c, "runtime") || endsWith(c, "_runtime") || c == "hpu_op") return EventKind::kRuntime;
  if (c == "driver" || endsWith(c, "_driver")) return EventKind::kDriver;
  if (c == "cuda_sync" || c == "xpu_sync") return EventKind::kCudaSync;
  if (c == "cuda_event") return EventKind::kCudaEvent;
  if (iequals(c, "python_function") || iequals(c, "python")) return EventKind::kPythonFunction;
  if (c == "overhead") return EventKind::kOverhead;
  if (iequals(c, "trace")) return EventKind::kSpan;
  return EventKind::kOther;
}

bool isSplitByName(std::string_view category) { return category == kMtiaDeviceCategory; }

EventKind deviceKindFromName(std::string_view name) {
  // HTA's memory pattern for MTIA is `^dma`; Memcpy/Memset as the other back-ends name them.
  if (istartsWith(name, "dma") || istartsWith(name, "memcpy")) return EventKind::kMemcpy;
  if (istartsWith(name, "memset")) return EventKind::kMemset;
  return EventKind::kKernel;
}

void parseCopyName(std::string_view s, GpuDetail& d) {
  // "Memcpy HtoD (Pageable -> Device)", "Memset (Device)"; kept tolerant of spacing.
  const size_t open = s.find('('), close = s.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return;
  const std::string_view inside = s.substr(open + 1, close - open - 1);
  const size_t arrow = inside.find(" -> ");
  if (arrow == std::string_view::npos) {
    d.dst_kind = memoryKindFromName(inside);
    return;
  }
  d.src_kind = memoryKindFromName(inside.substr(0, arrow));
  d.dst_kind = memoryKindFromName(inside.substr(arrow + 4));
  const size_t space = s.find(' ');
  if (space != std::string_view::npos && space < open) {
    std::string_view kind = s.substr(space + 1, open - space - 1);
    while (!kind.empty() && kind.back() == ' ') kind.remove_suffix(1);
    d.copy_kind = copyKindFromName(kind);
  }
}

}  // namespace steplint::trace
