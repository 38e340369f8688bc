// Kineto's display names for CUPTI enums (docs/reference/trace-format.md §7.3-7.6). CUPTI's own
// numbering is used throughout: memory kinds pageable 1, pinned 2 (not nsys's 0/1).
#include <cupti.h>

#include <cctype>
#include <cstring>

#include "cupti/cupti_records.h"

namespace steplint::collector {

namespace {

const char* copyKindText(uint8_t kind) {
  static const char* const kNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                       "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
  return kind < sizeof(kNames) / sizeof(kNames[0]) ? kNames[kind] : "Unrecognized";
}

const char* memoryKindText(uint8_t kind) {
  // CUpti_ActivityMemoryKind: UNKNOWN 0, PAGEABLE 1, PINNED 2, DEVICE 3, ARRAY 4, MANAGED 5,
  // DEVICE_STATIC 6, MANAGED_STATIC 7.
  static const char* const kNames[] = {"Unknown", "Pageable", "Pinned",        "Device",
                                       "Array",   "Managed",  "Device Static", "Managed Static"};
  return kind < sizeof(kNames) / sizeof(kNames[0]) ? kNames[kind] : "Unrecognized";
}

bool startsWith(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

}  // namespace

std::string memcpyName(uint8_t copy_kind, uint8_t src_kind, uint8_t dst_kind) {
  return std::string("Memcpy ") + copyKindText(copy_kind) + " (" + memoryKindText(src_kind) +
         " -> " + memoryKindText(dst_kind) + ")";
}

std::string memsetName(uint8_t memory_kind) {
  return std::string("Memset (") + memoryKindText(memory_kind) + ")";
}

const char* syncName(uint8_t sync_type) {
  switch (sync_type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
      return "Event Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
      return "Stream Wait Event";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
      return "Stream Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
      return "Context Sync";
    default:
      return "Unknown Sync";
  }
}

const char* overheadName(uint32_t overhead_kind) {
  switch (overhead_kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
      return "Driver Compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
      return "Buffer Flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
      return "Instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
      return "Resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
      return "Runtime Triggered Module Loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
      return "Lazy Function Loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
      return "Command Buffer Full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
      return "Activity Buffer Request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
      return "UVM Activity Init";
    default:
      return "Unknown";
  }
}

std::string stripVersionSuffix(const char* name) {
  std::string s = name;
  // Strip "_v" + at least 4 digits at the end ("_v7000", "_v13000"); keep "_v2" (an API
  // generation that is part of the name, e.g. cuMemcpyHtoD_v2).
  size_t pos = s.rfind("_v");
  if (pos == std::string::npos || s.size() - pos - 2 < 4) return s;
  for (size_t i = pos + 2; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return s;
  }
  s.resize(pos);
  return s;
}

bool isBlocklistedRuntimeCbid(uint32_t cbid) {
  // libkineto CuptiActivityProfiler.cpp isBlockListedRuntimeCbid: frequent, uninteresting.
  switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020:
      return true;
    default:
      return false;
  }
}

bool startsFlow(const std::string& n) {
  // By name rather than a cbid list so new variants (_ptsz, CUDA 13's __cudaLaunchKernel,
  // cudaMemcpyBatchAsync) are covered without a table per CUDA version.
  static const char* const kPrefixes[] = {"cudaLaunch",    "__cudaLaunch", "cudaGraphLaunch",
                                          "cudaMemcpy",    "cudaMemset",   "cuLaunch",
                                          "cuGraphLaunch", "cuMemcpy",     "cuMemset"};
  for (const char* p : kPrefixes) {
    if (startsWith(n, p)) return true;
  }
  return startsWith(n, "cudaStreamSynchronize") || startsWith(n, "cudaDeviceSynchronize") ||
         startsWith(n, "cudaStreamWaitEvent") || startsWith(n, "cudaEventSynchronize") ||
         startsWith(n, "cuStreamSynchronize") || startsWith(n, "cuCtxSynchronize") ||
         startsWith(n, "cuStreamWaitEvent") || startsWith(n, "cuEventSynchronize");
}

}  // namespace steplint::collector
