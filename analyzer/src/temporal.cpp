// HTA's temporal breakdown per GPU (docs/reference/peer-tools.md §2.2 kernel types, §2.3).
#include "steplint/analyzer/temporal.h"

#include <algorithm>
#include <map>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/start_order.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::TraceModel;

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// HTA's non-computation pattern, matched with `re.match` (anchored at the start):
// (^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)|
// (^runFunction)|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)|
// (^collective_subgraph_execution)
bool matchesNonComputation(std::string_view name) {
  for (std::string_view prefix :
       {"nccl", "Stream Wait Event", "runFunction", "hip", "job_exe", "packet", "pe_exe",
        "cpum_exe_subgraph", "hccl", "collective_subgraph_execution"})
    if (startsWith(name, prefix)) return true;
  for (std::string_view part : {"Memcpy", "Memset", "dma", "Sync"})
    if (contains(name, part)) return true;
  return startsWith(name, "cuda") && name.find("LaunchKernel", 4) != std::string_view::npos;
}

// HTA's GPU events of the temporal breakdown: rows with a stream (`stream != -1`), i.e. device
// ops and stream-bound cuda_sync records; stream-less syncs and GPU annotations have none.
bool isStreamEvent(const TraceModel& model, const Event& e) {
  if (trace::isDeviceOp(e.kind)) return true;
  const trace::GpuDetail* g = e.kind == EventKind::kCudaSync ? model.gpu(e) : nullptr;
  return g != nullptr && g->stream >= 0;
}

/// A device's events, met in start order (start_order.h): the unions' lengths as they come.
struct DeviceEvents {
  int64_t first_start = 0;
  int64_t last_end = 0;
  SortedUnionLength all;
  SortedUnionLength compute;
};

TemporalBreakdown summarize(int32_t device, const DeviceEvents& d) {
  TemporalBreakdown t;
  t.device = device;
  // T counts zero-length events at either end, as HTA's merged groups do.
  t.kernel_time_ns = d.last_end - d.first_start;
  t.idle_ns = t.kernel_time_ns - d.all.length();
  t.compute_ns = d.compute.length();
  t.non_compute_ns = t.kernel_time_ns - t.compute_ns - t.idle_ns;
  return t;
}

}  // namespace

HtaKernelType htaKernelType(std::string_view name) {
  if (startsWith(name, "nccl") || startsWith(name, "hip") || startsWith(name, "hccl") ||
      contains(name, "ncclKernel"))
    return HtaKernelType::kCommunication;  // HTA-Q11: any `hip…` name, tested first
  if (startsWith(name, "Memcpy") || startsWith(name, "Memset") || startsWith(name, "dma"))
    return HtaKernelType::kMemory;
  return matchesNonComputation(name) ? HtaKernelType::kOther : HtaKernelType::kComputation;
}

std::vector<TemporalBreakdown> computeTemporalBreakdown(const TraceModel& model,
                                                        const HtaWindow& window) {
  std::map<int32_t, DeviceEvents> devices;
  NameMemo kernel_type(model, htaKernelType);
  const auto kept = [&](const Event& e) {
    return isStreamEvent(model, e) && window.keeps(model, e);
  };
  // In start order, the unions are summed as the events come: no interval lists (160 MiB on a
  // 5 GB trace when they were gathered and built into sets).
  forEachInStartOrder(model, kept, [&](const Event& e) {
    auto [it, fresh] = devices.try_emplace(model.deviceOf(e));
    DeviceEvents& d = it->second;
    if (fresh) d.first_start = e.start_ns, d.last_end = e.end_ns();
    d.last_end = std::max(d.last_end, e.end_ns());
    d.all.add(e.start_ns, e.end_ns());
    if (kernel_type(e.name) == HtaKernelType::kComputation) d.compute.add(e.start_ns, e.end_ns());
  });
  std::vector<TemporalBreakdown> out;
  for (auto& [device, events] : devices) out.push_back(summarize(device, events));
  return out;
}

}  // namespace steplint::analyzer
