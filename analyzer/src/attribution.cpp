// The step attribution (attribution.h): disjoint interval sets per cause, built once over the
// whole trace by priority subtraction, then measured inside each step.
#include "steplint/analyzer/attribution.h"

#include <algorithm>
#include <map>

#include "host_threads.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/sync_api.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::EventKind;
using trace::kNoIndex;
using trace::TraceModel;

/// How far up the CPU ranges above a launch a collective name is looked for.
constexpr int kMaxCommDepth = 8;

struct HostSets {
  std::array<IntervalSet, kHostCauseCount> by_cause;  // disjoint; kUnrecorded stays empty
  IntervalSet waits;                                  // blocked in a sync or a blocking copy
};

bool isStepRange(std::string_view name) { return name.substr(0, 13) == "ProfilerStep#"; }

/// Host causes before priority: what each recorded interval of the host timeline is.
HostSets hostSets(const TraceModel& model, const StepResult& steps,
                  const IntervalSet& inferred_loader) {
  const int64_t from = steps.steps.front().start_ns, to = steps.steps.back().end_ns;
  const std::vector<char> host = hostTimelineTracks(model, steps, from, to);
  std::array<IntervalSetBuilder, kHostCauseCount> raw;
  NameMemo is_sync(model, [](std::string_view name) {
    SyncApi api = SyncApi::kStreamSync;
    return isSyncApiName(name, api);
  });
  NameMemo is_loader(model, isDataLoaderName);
  NameMemo is_step(model, isStepRange);
  for (const Event& e : model.events) {
    // A cuda_sync record is a host wait whichever row it is drawn on (no API call mirrors it).
    if (e.kind == EventKind::kCudaSync && e.link == kNoIndex &&
        model.name(e) != "Stream Wait Event") {
      raw[static_cast<size_t>(HostCause::kBlockedSync)].add(e.start_ns, e.end_ns());
      continue;
    }
    if (e.track >= host.size() || !host[e.track]) continue;
    if (trace::isLaunchApi(e.kind)) {
      raw[static_cast<size_t>(is_sync(e.name) ? HostCause::kBlockedSync : HostCause::kLaunch)].add(
          e.start_ns, e.end_ns());
    } else if (trace::isCpuRange(e.kind) && !is_step(e.name)) {
      raw[static_cast<size_t>(is_loader(e.name) ? HostCause::kDataLoader : HostCause::kOps)].add(
          e.start_ns, e.end_ns());
    }
  }
  for (const Interval& iv : inferred_loader.intervals())
    raw[static_cast<size_t>(HostCause::kDataLoader)].add(iv.start, iv.end);
  // A copy call that returned only after its copy ended blocked the host (pageable memory).
  for (const Event& op : model.events) {
    if ((op.kind != EventKind::kMemcpy && op.kind != EventKind::kMemset) || op.link == kNoIndex)
      continue;
    const Event& call = model.events[op.link];
    if (trace::isLaunchApi(call.kind) && call.track < host.size() && host[call.track] &&
        call.end_ns() >= op.end_ns())
      raw[static_cast<size_t>(HostCause::kBlockedCopy)].add(call.start_ns, call.end_ns());
  }
  HostSets out;
  IntervalSet taken;
  for (int c = 0; c < kHostCauseCount; ++c) {
    if (static_cast<HostCause>(c) == HostCause::kUnrecorded) continue;
    out.by_cause[c] = raw[c].build().subtract(taken);
    // The last recorded cause (ops, the largest set) needs no union after it: on a 1 GB trace
    // that union is a million intervals built and dropped.
    if (static_cast<HostCause>(c) != HostCause::kOps) taken = taken.unite(out.by_cause[c]);
  }
  out.waits = out.by_cause[static_cast<size_t>(HostCause::kBlockedSync)].unite(
      out.by_cause[static_cast<size_t>(HostCause::kBlockedCopy)]);
  return out;
}

/// True when the kernel was launched from inside a collective (nccl:*, gloo:*, record_param_comms).
bool launchedByCollective(const TraceModel& model, const Event& kernel) {
  if (kernel.link == kNoIndex) return false;
  uint32_t op = model.events[kernel.link].link;
  for (int depth = 0; op != kNoIndex && depth < kMaxCommDepth; ++depth) {
    if (isCommunicationOpName(model.name(model.events[op]))) return true;
    op = model.events[op].parent;
  }
  return false;
}

struct DeviceBusy {
  std::array<IntervalSetBuilder, 4> raw;  // compute, communication, copy, memset
};

std::map<int32_t, DeviceBusy> deviceBusy(const TraceModel& model) {
  std::map<int32_t, DeviceBusy> out;
  for (const Event& e : model.events) {
    if (!trace::isDeviceOp(e.kind)) continue;
    DeviceBusy& d = out[model.deviceOf(e)];
    size_t slot = 3;
    if (e.kind == EventKind::kKernel) {
      const bool comm = model.name(e).substr(0, 4) == "nccl" || launchedByCollective(model, e);
      slot = comm ? 1 : 0;
    } else if (e.kind == EventKind::kMemcpy) {
      slot = 2;
    }
    d.raw[slot].add(e.start_ns, e.end_ns());
  }
  return out;
}

/// From the end of each host wait to the device's next busy moment: the lead the host lost.
IntervalSet afterWaits(const IntervalSet& waits, const IntervalSet& busy) {
  std::vector<Interval> out;
  const auto& items = busy.intervals();
  for (const Interval& w : waits.intervals()) {
    auto next = std::lower_bound(items.begin(), items.end(), w.end,
                                 [](const Interval& iv, int64_t t) { return iv.end <= t; });
    if (next == items.end()) continue;
    if (next->start <= w.end) continue;  // still busy when the host came back
    out.push_back({w.end, next->start});
  }
  return IntervalSet::fromUnsorted(std::move(out));
}

/// The device's causes, disjoint, over the whole trace.
std::array<IntervalSet, kDeviceCauseCount> deviceSets(DeviceBusy& busy, const HostSets& host,
                                                      const IntervalSet& all) {
  std::array<IntervalSet, kDeviceCauseCount> out;
  IntervalSet taken;
  for (size_t i = 0; i < busy.raw.size(); ++i) {
    out[i] = busy.raw[i].build().subtract(taken);
    taken = taken.unite(out[i]);
  }
  IntervalSet idle = all.subtract(taken);
  auto claim = [&idle](const IntervalSet& where) {
    IntervalSet part = idle.intersect(where);
    idle = idle.subtract(part);
    return part;
  };
  out[static_cast<size_t>(DeviceCause::kIdleData)] =
      claim(host.by_cause[static_cast<size_t>(HostCause::kDataLoader)]);
  out[static_cast<size_t>(DeviceCause::kIdleBlocked)] = claim(host.waits);
  out[static_cast<size_t>(DeviceCause::kIdleAfterSync)] = claim(afterWaits(host.waits, taken));
  out[static_cast<size_t>(DeviceCause::kIdleLaunch)] =
      claim(host.by_cause[static_cast<size_t>(HostCause::kLaunch)]);
  out[static_cast<size_t>(DeviceCause::kIdleHostWork)] = idle;
  return out;
}

void average(AttributionResult& r) {
  const double n = static_cast<double>(r.per_step.size());
  for (const StepAttribution& a : r.per_step) {
    r.average_total_ns += static_cast<double>(a.total_ns) / n;
    for (int c = 0; c < kHostCauseCount; ++c)
      r.average_host_ns[c] += static_cast<double>(a.host_ns[c]) / n;
    if (r.average_device_ns.size() < a.devices.size()) r.average_device_ns.resize(a.devices.size());
    for (size_t d = 0; d < a.devices.size(); ++d) {
      r.average_device_ns[d].first = a.devices[d].device;
      for (int c = 0; c < kDeviceCauseCount; ++c)
        r.average_device_ns[d].second[c] += static_cast<double>(a.devices[d].ns[c]) / n;
    }
  }
}

}  // namespace

std::string_view hostCauseName(HostCause c) {
  static constexpr std::array<std::string_view, kHostCauseCount> kNames = {
      "blocked in sync", "blocked in copy", "DataLoader", "launch calls", "ops", "unrecorded"};
  return kNames[static_cast<size_t>(c)];
}

const std::array<double, kDeviceCauseCount>* averageDeviceNs(const AttributionResult& a,
                                                             int32_t device) {
  for (const auto& [id, ns] : a.average_device_ns)
    if (id == device) return &ns;
  return nullptr;
}

std::string hostCauseLabel(const AttributionResult& a, HostCause c) {
  std::string label(hostCauseName(c));
  if (c == HostCause::kDataLoader && a.dataloader_inferred) label += " (inferred)";
  return label;
}

std::string_view deviceCauseName(DeviceCause c) {
  static constexpr std::array<std::string_view, kDeviceCauseCount> kNames = {"compute",
                                                                             "communication",
                                                                             "copy",
                                                                             "memset",
                                                                             "idle: data",
                                                                             "idle: host blocked",
                                                                             "idle: after a sync",
                                                                             "idle: launch calls",
                                                                             "idle: host work"};
  return kNames[static_cast<size_t>(c)];
}

AttributionResult computeAttribution(const TraceModel& model, const StepResult& steps,
                                     const IntervalSet& inferred_loader) {
  AttributionResult result;
  if (steps.steps.empty()) return result;
  result.dataloader_inferred = !inferred_loader.empty();
  const HostSets host = hostSets(model, steps, inferred_loader);
  const IntervalSet all =
      IntervalSet::fromUnsorted({{steps.steps.front().start_ns, steps.steps.back().end_ns}});
  std::map<int32_t, DeviceBusy> busy = deviceBusy(model);
  std::vector<std::pair<int32_t, std::array<IntervalSet, kDeviceCauseCount>>> devices;
  for (auto& [device, b] : busy) devices.emplace_back(device, deviceSets(b, host, all));
  for (const Step& s : steps.steps) {
    StepAttribution a;
    a.step_number = s.number;
    a.total_ns = s.duration_ns();
    int64_t recorded = 0;
    for (int c = 0; c < kHostCauseCount; ++c) {
      a.host_ns[c] = host.by_cause[c].overlapLength(s.start_ns, s.end_ns);
      recorded += a.host_ns[c];
    }
    a.host_ns[static_cast<size_t>(HostCause::kUnrecorded)] = a.total_ns - recorded;
    for (const auto& [device, sets] : devices) {
      DeviceAttribution d;
      d.device = device;
      for (int c = 0; c < kDeviceCauseCount; ++c)
        d.ns[c] = sets[c].overlapLength(s.start_ns, s.end_ns);
      a.devices.push_back(d);
    }
    result.per_step.push_back(std::move(a));
  }
  average(result);
  return result;
}

}  // namespace steplint::analyzer
