// The step attribution (attribution.h): disjoint interval sets per cause, built by priority
// subtraction one step window at a time (step_windows.h), then measured inside each step.
#include "steplint/analyzer/attribution.h"

#include <algorithm>
#include <set>

#include "host_threads.h"
#include "step_windows.h"
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

/// What the attribution reads of the whole trace before its windows (step_windows.h).
struct TraceFacts {
  std::vector<char> host;           // per track: on the host timeline
  std::vector<bool> blocking_copy;  // per event: a copy call that returned after its copy ended
  std::vector<int32_t> devices;     // the devices with device ops, in id order
  int64_t from = 0, to = 0;         // first step's start, last step's end
};

bool isStepRange(std::string_view name) { return name.substr(0, 13) == "ProfilerStep#"; }

TraceFacts traceFacts(const TraceModel& model, const StepResult& steps) {
  TraceFacts f;
  f.from = steps.steps.front().start_ns;
  f.to = steps.steps.back().end_ns;
  f.host = hostTimelineTracks(model, steps, f.from, f.to);
  f.blocking_copy.assign(model.events.size(), false);
  std::set<int32_t> devices;
  for (const Event& op : model.events) {
    if (!trace::isDeviceOp(op.kind)) continue;
    devices.insert(model.deviceOf(op));
    // A copy call that returned only after its copy ended blocked the host (pageable memory).
    if ((op.kind != EventKind::kMemcpy && op.kind != EventKind::kMemset) || op.link == kNoIndex)
      continue;
    const Event& call = model.events[op.link];
    if (trace::isLaunchApi(call.kind) && call.track < f.host.size() && f.host[call.track] &&
        call.end_ns() >= op.end_ns())
      f.blocking_copy[op.link] = true;
  }
  f.devices.assign(devices.begin(), devices.end());
  return f;
}

/// True when the kernel was launched from inside a collective (nccl:*, gloo:*, record_param_comms).
template <typename IsComm>
bool launchedByCollective(const TraceModel& model, const Event& kernel, IsComm& is_comm) {
  if (kernel.link == kNoIndex) return false;
  uint32_t op = model.events[kernel.link].link;
  for (int depth = 0; op != kNoIndex && depth < kMaxCommDepth; ++depth) {
    if (is_comm(model.events[op].name)) return true;
    op = model.events[op].parent;
  }
  return false;
}

/// The intervals of one window, by cause, before priority.
struct WindowRaw {
  std::array<IntervalSetBuilder, kHostCauseCount> host;
  std::vector<std::array<IntervalSetBuilder, 4>> devices;  // compute, communication, copy, memset
};

/// Which host causes an event is (before priority), and which device slot.
class EventCauses {
 public:
  EventCauses(const TraceModel& model, const TraceFacts& facts)
      : model_(model),
        facts_(facts),
        is_sync_(model,
                 [](std::string_view name) {
                   SyncApi api = SyncApi::kStreamSync;
                   return isSyncApiName(name, api);
                 }),
        is_loader_(model, isDataLoaderName),
        is_step_(model, isStepRange),
        is_comm_(model, isCommunicationOpName),
        is_peer_kernel_(model, isPeerLibraryKernelName) {}

  /// Calls add(HostCause) for each host cause of `e`.
  template <typename Add>
  void host(const Event& e, Add&& add) {
    // A cuda_sync record is a host wait whichever row it is drawn on (no API call mirrors it).
    if (e.kind == EventKind::kCudaSync && e.link == kNoIndex &&
        model_.name(e) != "Stream Wait Event") {
      add(HostCause::kBlockedSync);
      return;
    }
    if (e.track >= facts_.host.size() || !facts_.host[e.track]) return;
    if (trace::isLaunchApi(e.kind)) {
      add(is_sync_(e.name) ? HostCause::kBlockedSync : HostCause::kLaunch);
      if (facts_.blocking_copy[static_cast<size_t>(&e - model_.events.data())])
        add(HostCause::kBlockedCopy);
    } else if (trace::isCpuRange(e.kind) && !is_step_(e.name)) {
      add(is_loader_(e.name) ? HostCause::kDataLoader : HostCause::kOps);
    }
  }

  /// A device op's device, as an index into TraceFacts::devices.
  size_t deviceIndex(const Event& e) const {
    const auto it =
        std::lower_bound(facts_.devices.begin(), facts_.devices.end(), model_.deviceOf(e));
    return static_cast<size_t>(it - facts_.devices.begin());
  }
  /// A device op's place in WindowRaw::devices: its device, and compute, communication, copy or
  /// memset.
  std::pair<size_t, size_t> deviceSlot(const Event& e) {
    size_t slot = 3;
    if (e.kind == EventKind::kKernel) {
      const bool comm = model_.name(e).substr(0, 4) == "nccl" || is_peer_kernel_(e.name) ||
                        launchedByCollective(model_, e, is_comm_);
      slot = comm ? 1 : 0;
    } else if (e.kind == EventKind::kMemcpy) {
      slot = 2;
    }
    return {deviceIndex(e), slot};
  }

  void collect(const Event& e, const StepWindow& w, WindowRaw& raw) {
    const Interval iv = clipTo(e.start_ns, e.end_ns(), w.start, w.end);
    if (trace::isDeviceOp(e.kind)) {
      const auto [device, slot] = deviceSlot(e);
      raw.devices[device][slot].add(iv.start, iv.end);
    }
    host(e, [&](HostCause c) { raw.host[static_cast<size_t>(c)].add(iv.start, iv.end); });
  }

 private:
  const TraceModel& model_;
  const TraceFacts& facts_;
  NameMemo<bool (*)(std::string_view)> is_sync_, is_loader_, is_step_, is_comm_, is_peer_kernel_;
};

/// The host's waits over the whole trace: blocked in a sync or in a blocking copy.
IntervalSet hostWaits(const TraceModel& model, EventCauses& causes) {
  IntervalSetBuilder waits;
  for (const Event& e : model.events)
    causes.host(e, [&](HostCause c) {
      if (c == HostCause::kBlockedSync || c == HostCause::kBlockedCopy)
        waits.add(e.start_ns, e.end_ns());
    });
  return waits.build();
}

/// Per device: from the end of each host wait to the device's next busy moment, the lead the
/// host lost. Over the whole trace, because such a gap can start before a window (a sync at the
/// end of one step, the next kernel in the next); few intervals, one per wait.
/// For each wait's end t: nothing if the device is busy at t (an op with start <= t <
/// end), else [t, the next op's start), if an op starts later. The same as looking t up in the
/// device's busy set, without building that set (hundreds of thousands of intervals): one pass
/// over each track's ops, which come in start order, against the sorted wait ends.
std::vector<IntervalSet> afterWaits(const TraceModel& model, const EventCauses& causes,
                                    size_t devices, const IntervalSet& waits) {
  const auto& w = waits.intervals();
  std::vector<std::vector<char>> busy(devices, std::vector<char>(w.size(), 0));
  std::vector<std::vector<int64_t>> next(devices, std::vector<int64_t>(w.size(), INT64_MAX));
  struct Cursor {
    size_t j = 0;               // the first wait end not yet placed against this track's ops
    int64_t reach = INT64_MIN;  // the latest end of this track's ops so far
  };
  std::vector<Cursor> at(devices);
  for (const trace::Track& track : model.tracks) {
    std::fill(at.begin(), at.end(), Cursor{});
    for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
      const Event& op = model.events[i];
      if (!trace::isDeviceOp(op.kind) || op.end_ns() <= op.start_ns) continue;
      const size_t d = causes.deviceIndex(op);
      Cursor& c = at[d];
      for (; c.j < w.size() && w[c.j].end < op.start_ns; ++c.j) {
        if (c.reach > w[c.j].end)
          busy[d][c.j] = 1;
        else
          next[d][c.j] = std::min(next[d][c.j], op.start_ns);
      }
      c.reach = std::max(c.reach, op.end_ns());
    }
    for (size_t d = 0; d < devices; ++d)
      for (Cursor& c = at[d]; c.j < w.size(); ++c.j)
        if (c.reach > w[c.j].end) busy[d][c.j] = 1;
  }
  std::vector<IntervalSet> out;
  for (size_t d = 0; d < devices; ++d) {
    std::vector<Interval> gaps;
    for (size_t j = 0; j < w.size(); ++j)
      if (!busy[d][j] && next[d][j] != INT64_MAX) gaps.push_back({w[j].end, next[d][j]});
    out.push_back(IntervalSet::fromUnsorted(std::move(gaps)));
  }
  return out;
}

struct HostSets {
  std::array<IntervalSet, kHostCauseCount> by_cause;  // disjoint; kUnrecorded stays empty
  IntervalSet waits;                                  // blocked in a sync or a blocking copy
};

/// Host causes by priority: each keeps what no earlier cause covers.
HostSets hostSets(WindowRaw& raw) {
  HostSets out;
  IntervalSet taken;
  for (int c = 0; c < kHostCauseCount; ++c) {
    if (static_cast<HostCause>(c) == HostCause::kUnrecorded) continue;
    out.by_cause[c] = raw.host[c].build().subtract(taken);
    // The last recorded cause (ops, the largest set) needs no union after it.
    if (static_cast<HostCause>(c) != HostCause::kOps) taken = taken.unite(out.by_cause[c]);
  }
  out.waits = out.by_cause[static_cast<size_t>(HostCause::kBlockedSync)].unite(
      out.by_cause[static_cast<size_t>(HostCause::kBlockedCopy)]);
  return out;
}

/// One device's causes inside the window, disjoint.
std::array<IntervalSet, kDeviceCauseCount> deviceSets(std::array<IntervalSetBuilder, 4>& raw,
                                                      const HostSets& host, const Interval& all,
                                                      const IntervalSet& after_waits) {
  std::array<IntervalSet, kDeviceCauseCount> out;
  IntervalSet taken;
  for (size_t i = 0; i < raw.size(); ++i) {
    out[i] = raw[i].build().subtract(taken);
    taken = taken.unite(out[i]);
  }
  IntervalSet idle = IntervalSet::fromUnsorted({all}).subtract(taken);
  auto claim = [&idle](const IntervalSet& where) {
    IntervalSet part = idle.intersect(where);
    idle = idle.subtract(part);
    return part;
  };
  out[static_cast<size_t>(DeviceCause::kIdleData)] =
      claim(host.by_cause[static_cast<size_t>(HostCause::kDataLoader)]);
  out[static_cast<size_t>(DeviceCause::kIdleBlocked)] = claim(host.waits);
  out[static_cast<size_t>(DeviceCause::kIdleAfterSync)] = claim(after_waits);
  out[static_cast<size_t>(DeviceCause::kIdleLaunch)] =
      claim(host.by_cause[static_cast<size_t>(HostCause::kLaunch)]);
  out[static_cast<size_t>(DeviceCause::kIdleHostWork)] = idle;
  return out;
}

/// One step's share of each cause, from its window's sets.
void measureStep(const Step& s, const HostSets& host, const TraceFacts& facts,
                 const std::vector<std::array<IntervalSet, kDeviceCauseCount>>& devices,
                 StepAttribution& a) {
  a.step_number = s.number;
  a.total_ns = s.duration_ns();
  int64_t recorded = 0;
  for (int c = 0; c < kHostCauseCount; ++c) {
    a.host_ns[c] = host.by_cause[c].overlapLength(s.start_ns, s.end_ns);
    recorded += a.host_ns[c];
  }
  a.host_ns[static_cast<size_t>(HostCause::kUnrecorded)] = a.total_ns - recorded;
  for (size_t d = 0; d < devices.size(); ++d) {
    DeviceAttribution out;
    out.device = facts.devices[d];
    for (int c = 0; c < kDeviceCauseCount; ++c)
      out.ns[c] = devices[d][c].overlapLength(s.start_ns, s.end_ns);
    a.devices.push_back(out);
  }
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
  const TraceFacts facts = traceFacts(model, steps);
  EventCauses causes(model, facts);
  const std::vector<IntervalSet> after_waits =
      afterWaits(model, causes, facts.devices.size(), hostWaits(model, causes));
  WindowEvents events(model);
  result.per_step.resize(steps.steps.size());
  for (const StepWindow& w : stepWindows(steps.steps, kStepWindowCount)) {
    WindowRaw raw;
    raw.devices.resize(facts.devices.size());
    events.forEach(w.start, w.end, [&](const Event& e) { causes.collect(e, w, raw); });
    const IntervalSet loader = inferred_loader.clip(w.start, w.end);
    for (const Interval& iv : loader.intervals())
      raw.host[static_cast<size_t>(HostCause::kDataLoader)].add(iv.start, iv.end);
    const HostSets host = hostSets(raw);
    // The device sets cover the steps' span, [first step's start, last step's end).
    const Interval all = clipTo(facts.from, facts.to, w.start, w.end);
    std::vector<std::array<IntervalSet, kDeviceCauseCount>> devices;
    for (size_t d = 0; d < facts.devices.size(); ++d)
      devices.push_back(deviceSets(raw.devices[d], host, all, after_waits[d].clip(w.start, w.end)));
    for (size_t i : w.steps) measureStep(steps.steps[i], host, facts, devices, result.per_step[i]);
  }
  average(result);
  return result;
}

}  // namespace steplint::analyzer
