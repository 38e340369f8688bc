#include "common/host_sync.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <unordered_set>

#include "common/gpu_timeline.h"
#include "common/rule_support.h"
#include "common/shared_data.h"
#include "common/trace_tree.h"
#include "steplint/analyzer/breakdown.h"
#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/name_memo.h"

namespace steplint::rules::common {
namespace {

using trace::Event;
using trace::EventKind;
using trace::kNoIndex;
using trace::TraceModel;

bool isScalarReadOp(std::string_view name) {
  return name == "aten::item" || name == "aten::_local_scalar_dense" ||
         name == "aten::is_nonzero" || name == "aten::equal";
}

bool isCopyOp(std::string_view name) {
  return name == "aten::copy_" || name == "aten::_copy_from" ||
         name == "aten::_copy_from_and_resize" || name == "aten::_to_copy" || name == "aten::to";
}

/// Events looked at around a call when pairing copies and syncs; they are adjacent in practice.
constexpr uint32_t kMaxPairingScan = 256;

/// The memcpy that the sync at `index` waits for: its own device op for a synchronous copy,
/// else the copy launched by the closest preceding call at the same level (same parent: the
/// same op, e.g. aten::copy_ or aten::_local_scalar_dense), when no other launch is between.
uint32_t copyBefore(const TraceModel& model, const LaunchIndex& launches, uint32_t index) {
  const Event& sync = model.events[index];
  const uint32_t first = model.tracks[sync.track].first_event;
  for (uint32_t j = index, n = 0; j > first && n < kMaxPairingScan; ++n) {
    --j;
    if (j == sync.parent) break;
    const Event& e = model.events[j];
    if (e.parent != sync.parent || !trace::isLaunchApi(e.kind)) continue;
    const uint32_t op = launches.deviceOpOf(j);
    return op != kNoIndex && model.events[op].kind == EventKind::kMemcpy ? op : kNoIndex;
  }
  return kNoIndex;
}

int32_t deviceWaitedOn(const TraceModel& model, const LaunchIndex& launches, uint32_t index,
                       int32_t fallback) {
  const Event& sync = model.events[index];
  if (const trace::GpuDetail* g = model.gpu(sync); g && g->device >= 0) return g->device;
  const uint32_t first = model.tracks[sync.track].first_event;
  constexpr uint32_t kMaxLookBack = 4096;
  for (uint32_t j = index, n = 0; j > first && n < kMaxLookBack; ++n) {
    --j;
    const uint32_t op = launches.deviceOpOf(j);
    if (op != kNoIndex) return model.deviceOf(model.events[op]);
  }
  return fallback;
}

bool isCollectiveRange(std::string_view name) {
  return name.substr(0, 5) == "gloo:" || name.substr(0, 5) == "nccl:";
}

/// A sync no op issued that the communication backend made: inside a collective's range, or in
/// DistributedDataParallel.forward before any op of the model ran (DDP waiting for the previous
/// step's collectives; a user's synchronize in the model's forward comes after its first op).
bool backendSync(const TraceModel& model, uint32_t sync, uint32_t range) {
  if (findAncestor(model, sync, [&](const Event& e) {
        return trace::isCpuRange(e.kind) && isCollectiveRange(model.name(e));
      }) != kNoIndex)
    return true;
  if (range == kNoIndex || model.name(model.events[range]) != "DistributedDataParallel.forward")
    return false;
  // The range's events before the sync, in track order; DDP's own calls are a few.
  if (sync - range > kMaxPairingScan) return false;
  for (uint32_t j = range + 1; j < sync; ++j)
    if (model.events[j].kind == EventKind::kCpuOp) return false;
  return true;
}

void classify(const TraceModel& model, const LaunchIndex& launches, HostSync& s) {
  const uint32_t range = enclosingCpuRange(model, s.event);
  s.range = range;
  s.op = outermostAtenOp(model, s.event);
  if (findAncestor(model, s.event, [&](const Event& e) { return isScalarReadOp(model.name(e)); }) !=
      kNoIndex) {
    s.cause = SyncCause::kScalarRead;
  }
  s.copy = s.api == SyncApi::kSyncCopy ? launches.deviceOpOf(s.event)
                                       : copyBefore(model, launches, s.event);
  // A copy API can block by itself (pageable memory): the wait starts at the copy call.
  if (s.copy != kNoIndex && model.events[s.copy].link != kNoIndex)
    s.wait_start_ns = std::min(s.wait_start_ns, model.events[model.events[s.copy].link].start_ns);
  if (s.cause == SyncCause::kScalarRead) return;
  // The copy and the sync belong together unless another kind of op (aten::nonzero ...) issued
  // both.
  const bool copy_issued = range == kNoIndex || model.events[range].kind != EventKind::kCpuOp ||
                           isCopyOp(model.name(model.events[range]));
  if (s.copy != kNoIndex && copy_issued) {
    const trace::GpuDetail* g = model.gpu(model.events[s.copy]);
    const bool to_host =
        g && (g->copy_kind == trace::CopyKind::kDtoH || g->copy_kind == trace::CopyKind::kAtoH);
    s.cause = to_host ? SyncCause::kCopyToHost : SyncCause::kCopyToDevice;
    return;
  }
  const uint32_t cpu_op =
      findAncestor(model, s.event, [](const Event& e) { return e.kind == EventKind::kCpuOp; });
  if (cpu_op != kNoIndex) {
    s.cause = SyncCause::kOtherOp;
    if (s.op == kNoIndex) s.op = cpu_op;
  } else if (backendSync(model, s.event, range)) {
    s.cause = SyncCause::kCollective;
  }
}

}  // namespace

std::string_view syncCauseName(SyncCause cause) {
  static constexpr std::array<std::string_view, kSyncCauseCount> kNames = {
      "explicit synchronize", "scalar read (.item())",     "device-to-host copy",
      "copy to the device",   "op reading a device value", "unknown",
      "communication backend"};
  return kNames[static_cast<size_t>(cause)];
}

std::string loaderShare(double idle_ms, double loader_ms) {
  if (loader_ms <= 0 || loader_ms < 0.05 * idle_ms) return "";
  char buf[96];
  std::snprintf(buf, sizeof(buf), " (%.2f ms of it while the host loads the next batch)",
                loader_ms);
  return buf;
}

namespace {

// The SyncApi a call's name blocks with, or -1 (isSyncApiName as one value, for NameMemo).
int syncApiOf(std::string_view name) {
  SyncApi api = SyncApi::kStreamSync;
  return isSyncApiName(name, api) ? static_cast<int>(api) : -1;
}

/// When the host waited for the next batch: the DataLoader ranges, else the inferred input
/// phases (analyzer/input_wait.h), as the step attribution reads them.
analyzer::IntervalSet loaderWaits(const analyzer::AnalysisContext& context) {
  const TraceModel& model = context.model();
  analyzer::NameMemo is_loader(model, analyzer::isDataLoaderName);
  analyzer::IntervalSetBuilder ranges;
  for (const Event& e : model.events)
    if (trace::isCpuRange(e.kind) && is_loader(e.name)) ranges.add(e.start_ns, e.end_ns());
  return ranges.build().unite(context.summary().input_wait.ranges);
}

/// An asynchronous copy call into pageable host memory that returned only once its copy had
/// ended (CUDA: such a copy is synchronous for the host), or kNoIndex: its device-to-host copy.
uint32_t blockingCopyToHost(const TraceModel& model, const LaunchIndex& launches, uint32_t call) {
  const uint32_t op = launches.deviceOpOf(call);
  if (op == kNoIndex) return kNoIndex;
  const Event& copy = model.events[op];
  const trace::GpuDetail* g = model.gpu(copy);
  const bool to_host =
      g && (g->copy_kind == trace::CopyKind::kDtoH || g->copy_kind == trace::CopyKind::kAtoH);
  // Into pinned memory the call returns at once: a tiny copy that ended inside it did not block.
  if (!to_host || g->dst_kind == trace::MemoryKind::kPinned) return kNoIndex;
  const Event& e = model.events[call];
  return e.end_ns() >= copy.end_ns() && copy.end_ns() > e.start_ns ? op : kNoIndex;
}

/// Builds the host syncs of one trace (see computeHostSyncs).
class SyncCollector {
 public:
  explicit SyncCollector(const analyzer::AnalysisContext& context)
      : context_(context),
        model_(context.model()),
        launches_(launchIndex(context)),
        busy_(deviceBusyTimeline(context)),
        loader_(loaderWaits(context)) {
    const auto devices = busy_.devices();
    only_device_ = devices.size() == 1 ? devices.front() : -1;
  }

  /// Fills in `s` (its api set) for the event `i`; false when it lies outside every step.
  bool complete(HostSync& s, uint32_t i) const {
    const Event& e = model_.events[i];
    s.event = i;
    s.start_ns = e.start_ns;
    s.end_ns = e.end_ns();
    s.wait_start_ns = e.start_ns;
    s.step = e.kind == EventKind::kCudaSync ? context_.stepAt(e.start_ns)
                                            : hostStepAt(context_, e.start_ns);
    if (s.step < 0) return false;
    if (s.api != SyncApi::kSyncRecord) classify(model_, launches_, s);
    s.device = deviceWaitedOn(model_, launches_, i, only_device_);
    const analyzer::Interval gap =
        busy_.idleGapAfterSync(s.device, s.wait_start_ns, s.end_ns, idleLimit(context_, s.step));
    s.gpu_idle_ns = gap.end - gap.start;
    if (s.gpu_idle_ns > 0) s.gpu_idle_loader_ns = loader_.overlapLength(gap.start, gap.end);
    return true;
  }

  const TraceModel& model() const { return model_; }
  const LaunchIndex& launches() const { return launches_; }

 private:
  const analyzer::AnalysisContext& context_;
  const TraceModel& model_;
  const LaunchIndex& launches_;
  const DeviceBusyTimeline& busy_;
  const analyzer::IntervalSet loader_;
  int32_t only_device_ = -1;
};

/// torch follows most copies to the host with a stream sync, which claims the copy (classify:
/// `copy`); a blocking copy to the host that no sync claims is itself the sync (a `.cpu()` whose
/// cudaMemcpyAsync blocked 35 ms read "no host sync" without the 5 µs cudaStreamSynchronize).
void addUnclaimedBlockingCopies(const SyncCollector& collector, std::vector<HostSync>& out) {
  const TraceModel& model = collector.model();
  std::unordered_set<uint32_t> claimed;
  for (const HostSync& s : out)
    if (s.copy != kNoIndex) claimed.insert(s.copy);
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    if (!trace::isLaunchApi(model.events[i].kind)) continue;
    const uint32_t copy = blockingCopyToHost(model, collector.launches(), i);
    if (copy == kNoIndex || claimed.count(copy) > 0) continue;
    HostSync s;
    s.api = SyncApi::kSyncCopy;
    if (collector.complete(s, i)) out.push_back(s);
  }
}

std::vector<HostSync> computeHostSyncs(const analyzer::AnalysisContext& context) {
  const TraceModel& model = context.model();
  const SyncCollector collector(context);
  std::vector<HostSync> out;
  // Decided once per distinct name: millions of launch calls share a few dozen names.
  analyzer::NameMemo sync_api(model, syncApiOf);
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const Event& e = model.events[i];
    HostSync s;
    if (trace::isLaunchApi(e.kind)) {
      const int api = sync_api(e.name);
      if (api < 0) continue;
      s.api = static_cast<SyncApi>(api);
    } else if (e.kind == EventKind::kCudaSync) {
      // A record mirrored by an API call in the trace is counted once, at the call.
      if (e.link != kNoIndex || model.name(e) == "Stream Wait Event") continue;
      s.api = SyncApi::kSyncRecord;
      s.cause = SyncCause::kUnknown;
    } else {
      continue;
    }
    if (collector.complete(s, i)) out.push_back(s);
  }
  addUnclaimedBlockingCopies(collector, out);
  // In time order, not the model's track order: tracks are numbered as the file first names
  // them, so the 20 syncs a finding shows as evidence changed when a file listed its threads in
  // another order (the counts and savings did not).
  std::stable_sort(out.begin(), out.end(), [](const HostSync& a, const HostSync& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
  });
  return out;
}

}  // namespace

const std::vector<HostSync>& findHostSyncs(const analyzer::AnalysisContext& context) {
  return context.shared<std::vector<HostSync>>("common.host_syncs",
                                               [&] { return computeHostSyncs(context); });
}

}  // namespace steplint::rules::common
