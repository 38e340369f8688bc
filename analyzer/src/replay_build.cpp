// Builds the replay program (replay_internal.h) of a run of kept steps: the serial host
// timeline (work, launches, waits) and the GPU ops with the delays that the replay keeps.
#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "host_threads.h"
#include "replay_enqueue.h"
#include "replay_external_wait.h"
#include "replay_fix_mask.h"
#include "replay_internal.h"
#include "replay_recorded.h"
#include "steplint/analyzer/medians.h"
#include "steplint/analyzer/name_memo.h"
#include "steplint/analyzer/sync_api.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::kNoIndex;
using trace::TraceModel;

/// How far before an op's start another stream's op may end for the op to count as waiting
/// for it (cudaStreamWaitEvent): the device starts a waiting op within a few µs.
constexpr int64_t kDependencyToleranceNs = 5'000;

/// Where a GPU op comes from, relative to the window [start, host_end).
enum class OpPlace : uint8_t { kOutside, kBefore, kLaunched };

struct OpInfo {
  uint32_t event = kNoIndex;
  uint32_t call = kNoIndex;  // launch call inside the window (kNoIndex: launched at its start)
  int64_t enqueue = 0;       // observed launch time: the call's start, else the op's start
  uint32_t slot = 0;
  OpPlace place = OpPlace::kOutside;
};

/// A host call that waited for a GPU op: [start, end) on the host timeline.
struct HostWait {
  int64_t start = 0;
  int64_t end = 0;
  uint32_t wait_call = kNoIndex;  // the call (for FixEffect::waits)
  uint32_t target = kNoIndex;     // the op event waited for
};

/// A launch on the host timeline: the ops of one launch call, [first, first + count) in the
/// launch-ordered op list; count 0 when no launch is left.
struct LaunchGroup {
  uint32_t first = 0;
  uint32_t count = 0;
};

class Builder {
 public:
  Builder(const TraceModel& model, const StepResult& steps, size_t first, size_t last,
          const std::vector<FixEffect>& fixes)
      : model_(model),
        steps_(steps),
        fixes_(fixes),
        start_(steps.steps[first].start_ns),
        host_end_(std::max(steps.steps[last - 1].host_end_ns, start_)),
        fix_mask_(fixes, start_, host_end_) {
    program_.start = at(start_);  // 0: every time in the program is relative to the window
    program_.steps = last - first;
  }

  ReplayProgram build() {
    recorded_.emplace(model_, steps_, start_, host_end_);
    collectOps();
    collectWaits();
    addBlockingCopies();
    emitTimeline();
    computeDelays();
    markDeviceFixes();
    for (size_t f = 0; f < fixes_.size() && f < StepReplay::kMaxFixes; ++f) {
      const FixEffect& fix = fixes_[f];
      addFactors(program_.point, fix.host_factor, fix.device_factor);
      addFactors(program_.worst,
                 fix.host_factor_worst >= 0 ? fix.host_factor_worst : fix.host_factor,
                 fix.device_factor_worst >= 0 ? fix.device_factor_worst : fix.device_factor);
    }
    program_.observed = observedLength();
    return std::move(program_);
  }

  /// How many items build() would make, without making them, the ops' delays or the lookups
  /// (a tenth of the memory of a whole multi-million-event trace's program).
  size_t countItems() {
    count_only_ = true;
    collectOps();
    collectWaits();
    addBlockingCopies();
    emitTimeline();
    return item_count_;
  }

 private:
  static void addFactors(Factors& out, double host, double device) {
    // A fix never makes anything slower: factors above 1 would break the replay's guarantee
    // that shares are never negative.
    out.host.push_back(std::clamp(host, 0.0, 1.0));
    out.device.push_back(std::clamp(device, 0.0, 1.0));
    out.residual.push_back(std::clamp(host, 0.0, 1.0));
  }

  uint32_t slotOf(const Event& e) {
    const trace::GpuDetail* g = model_.gpu(e);
    const std::pair<int32_t, int32_t> key{g ? g->device : -1, g ? g->stream : -1};
    auto [it, added] = slots_.emplace(key, static_cast<uint32_t>(slots_.size()));
    if (added) program_.slot_free.push_back(-1e300);
    return it->second;
  }

  /// Every GPU op that runs in the window or before it on a queue the window uses.
  void collectOps() {
    // Room for every device op: grown by doubling instead, the list of a whole multi-GB trace
    // (the count) held its old and new buffers at once, up to three times its size. Room that
    // a window leaves unused is never touched, so it costs no memory.
    const OpEnqueue enqueue(model_);
    ops_.reserve(enqueue.deviceOps());
    for (uint32_t i = 0; i < model_.events.size(); ++i) {
      const Event& e = model_.events[i];
      if (!trace::isDeviceOp(e.kind)) continue;
      OpInfo op;
      op.event = i;
      const OpEnqueue::Time queued = enqueue.of(e);
      op.enqueue = queued.at;
      if (op.enqueue >= start_ && op.enqueue < host_end_) {
        op.place = OpPlace::kLaunched;
        op.call = queued.call;
      } else if (op.enqueue < start_ && e.end_ns() > start_) {
        op.place = OpPlace::kBefore;
      } else {
        continue;
      }
      op.slot = slotOf(e);
      if (op.place == OpPlace::kBefore) {
        double& free = program_.slot_free[op.slot];
        free = std::max(free, at(e.end_ns()));
      }
      ops_.push_back(op);
    }
    std::sort(ops_.begin(), ops_.end(), [this](const OpInfo& a, const OpInfo& b) {
      if (a.enqueue != b.enqueue) return a.enqueue < b.enqueue;
      return model_.events[a.event].start_ns < model_.events[b.event].start_ns;
    });
    by_end_.reserve(ops_.size());
    for (uint32_t k = 0; k < ops_.size(); ++k) by_end_.push_back(k);
    std::sort(by_end_.begin(), by_end_.end(),
              [this](uint32_t a, uint32_t b) { return endOf(a) < endOf(b); });
  }

  int64_t endOf(uint32_t k) const { return model_.events[ops_[k].event].end_ns(); }

  /// Host calls that blocked until a GPU op ended: sync API calls, and copy calls that
  /// returned only after their own copy finished (pageable memory, cudaMemcpy).
  void collectWaits() {
    NameMemo is_sync(model_, [](std::string_view name) {
      SyncApi api = SyncApi::kStreamSync;
      return isSyncApiName(name, api);
    });
    for (uint32_t i = 0; i < model_.events.size(); ++i) {
      // A cuda_sync record that no API call mirrors is the only sign of that host wait.
      const Event& e = model_.events[i];
      if (e.kind != trace::EventKind::kCudaSync || e.link != kNoIndex) continue;
      if (e.start_ns < start_ || e.start_ns >= host_end_ || model_.name(e) == "Stream Wait Event")
        continue;
      const uint32_t target = opWaitedFor(e.start_ns, e.end_ns());
      if (target != kNoIndex) waits_.push_back({e.start_ns, e.end_ns(), i, target});
    }
    for (const trace::Track& track : model_.tracks) {
      if (track.kind != trace::TrackKind::kCpuThread) continue;
      for (uint32_t i = track.first_event; i < track.first_event + track.event_count; ++i) {
        const Event& e = model_.events[i];
        if (!trace::isLaunchApi(e.kind) || e.start_ns < start_ || e.start_ns >= host_end_) continue;
        if (!is_sync(e.name)) continue;
        const uint32_t target = opWaitedFor(e.start_ns, e.end_ns());
        if (target != kNoIndex) waits_.push_back({e.start_ns, e.end_ns(), i, target});
      }
    }
  }

  /// The op a wait [start, end) waited for: the last to end inside it among the ops launched
  /// before it started. None when the GPU had nothing left to do (the call did not block).
  uint32_t opWaitedFor(int64_t start, int64_t end) const {
    auto hi = std::upper_bound(by_end_.begin(), by_end_.end(), end,
                               [this](int64_t t, uint32_t k) { return t < endOf(k); });
    while (hi != by_end_.begin()) {
      --hi;
      if (endOf(*hi) <= start) break;
      if (ops_[*hi].enqueue < start) return ops_[*hi].event;
    }
    return kNoIndex;
  }

  /// The ops of one launch call from ops_[k] on (ops_ is in launch order, so a call's ops are
  /// together).
  uint32_t groupSize(uint32_t k) const {
    const OpInfo& op = ops_[k];
    uint32_t n = 1;
    while (k + n < ops_.size() && op.call != kNoIndex && ops_[k + n].call == op.call) ++n;
    return n;
  }

  /// The first launch in the window at or after ops_[k]. Launches are read off ops_ as the
  /// timeline is emitted rather than listed: on a whole multi-GB trace (the count that chooses
  /// the window) the list and its sort took hundreds of MB.
  LaunchGroup launchFrom(uint32_t k) const {
    while (k < ops_.size()) {
      const uint32_t n = groupSize(k);
      if (ops_[k].place == OpPlace::kLaunched) return {k, n};
      k += n;
    }
    return {k, 0};
  }

  /// A copy call that blocked until its copy ended is a launch followed by a wait; then the
  /// waits that cannot be replayed are dropped.
  void addBlockingCopies() {
    for (LaunchGroup g = launchFrom(0); g.count > 0; g = launchFrom(g.first + g.count)) {
      const OpInfo& op = ops_[g.first];
      const Event& dev = model_.events[op.event];
      if (op.call != kNoIndex && g.count == 1 && dev.kind != trace::EventKind::kKernel &&
          model_.events[op.call].end_ns() >= dev.end_ns() && dev.end_ns() > op.enqueue) {
        const Event& call = model_.events[op.call];
        waits_.push_back({call.start_ns, call.end_ns(), op.call, op.event});
      }
    }
    dropOverlappingWaits();
  }

  /// A wait during which another thread launched work, or that overlaps an earlier wait,
  /// cannot be replayed as one serial host timeline: it stays plain host time.
  void dropOverlappingWaits() {
    std::sort(waits_.begin(), waits_.end(),
              [](const HostWait& a, const HostWait& b) { return a.start < b.start; });
    // Waits and launches both in start order: one cursor finds the first launch after each
    // wait's start.
    LaunchGroup next = launchFrom(0);
    size_t kept = 0;
    int64_t last_end = INT64_MIN;
    for (const HostWait& w : waits_) {
      while (next.count > 0 && ops_[next.first].enqueue <= w.start)
        next = launchFrom(next.first + next.count);
      const bool launched_inside = next.count > 0 && ops_[next.first].enqueue < w.end;
      if (w.start < last_end || launched_inside) continue;
      waits_[kept++] = w;
      last_end = w.end;
    }
    waits_.resize(kept);
  }

  /// The host timeline: work between launches and waits (cut where a fix's host time starts or
  /// ends), the launches and the waits, in start order; launches before waits at the same time
  /// (a blocking copy is enqueued, then waited for).
  void emitTimeline() {
    local_of_.assign(ops_.size(), kNoOp);
    int64_t cur = start_;
    LaunchGroup launch = launchFrom(0);
    for (size_t w = 0; launch.count > 0 || w < waits_.size();) {
      if (launch.count > 0 &&
          (w == waits_.size() || ops_[launch.first].enqueue <= waits_[w].start)) {
        const int64_t at = ops_[launch.first].enqueue;
        emitWork(cur, at);
        cur = std::max(cur, at);
        for (uint32_t k = launch.first; k < launch.first + launch.count; ++k) emitLaunch(k);
        launch = launchFrom(launch.first + launch.count);
        continue;
      }
      const HostWait& wait = waits_[w++];
      emitWork(cur, wait.start);
      cur = std::max(cur, wait.start);
      emitWait(wait);
      fix_mask_.advance(wait.end);
      cur = wait.end;
    }
    emitWork(cur, host_end_);
  }

  void emitWork(int64_t from, int64_t to) {
    while (from < to) {
      fix_mask_.advance(from);
      const int64_t next = fix_mask_.next(to);
      ReplayItem item;
      item.kind = ReplayItem::kWork;
      item.dur = static_cast<double>(next - from);
      item.mask = fix_mask_.mask();
      if (recorded_) {  // not made when only counting
        item.recorded = recorded_->rangesIn(from, next);
        item.recorded_frames = recorded_->framesIn(from, next);
      }
      if (item_count_ > 0 && last_kind_ == ReplayItem::kWork && last_mask_ == item.mask) {
        if (!count_only_) {
          program_.items.back().dur += item.dur;  // consecutive pieces under the same fixes
          program_.items.back().recorded += item.recorded;
          program_.items.back().recorded_frames += item.recorded_frames;
        }
      } else {
        pushItem(item);
      }
      from = next;
    }
  }

  void pushItem(const ReplayItem& item) {
    ++item_count_;
    last_kind_ = item.kind;
    last_mask_ = item.mask;
    if (!count_only_) program_.items.push_back(item);
  }

  void emitLaunch(uint32_t k) {
    if (count_only_) return pushItem(ReplayItem{ReplayItem::kLaunch});
    local_of_[k] = static_cast<uint32_t>(program_.ops.size());
    ReplayOp op;
    op.slot = ops_[k].slot;
    op.dur = static_cast<double>(model_.events[ops_[k].event].dur_ns);
    program_.ops.push_back(op);
    launch_order_.push_back(k);
    ReplayItem item;
    item.kind = ReplayItem::kLaunch;
    item.op = local_of_[k];
    pushItem(item);
  }

  void emitWait(const HostWait& w) {
    fix_mask_.advance(w.start);
    ReplayItem item;
    item.kind = ReplayItem::kWait;
    const int64_t target_end = model_.events[w.target].end_ns();
    item.after = static_cast<double>(std::max<int64_t>(0, w.end - std::max(target_end, w.start)));
    item.dur = item.after;  // without the wait the call still costs what followed the op's end
    // A fix that removes the host time around it removes the wait too.
    item.mask = fix_mask_.mask();
    if (count_only_) return pushItem(item);
    const uint32_t k = opIndexOf(w.target);
    if (k != kNoIndex && local_of_[k] != kNoOp) {
      item.op = local_of_[k];
    } else {
      item.fixed_end = at(target_end);  // ran before the window: fixed
    }
    wait_item_of_.emplace(w.wait_call, program_.items.size());
    pushItem(item);
  }

  uint32_t opIndexOf(uint32_t event) {
    if (op_index_.empty())
      for (uint32_t k = 0; k < ops_.size(); ++k) op_index_.emplace(ops_[k].event, k);
    auto it = op_index_.find(event);
    return it == op_index_.end() ? kNoIndex : it->second;
  }

  /// Each launched op's delays (ReplayOp): which constraint bound its observed start — its
  /// launch, its queue, or an op it waited for on another stream (inferred: that op ended just
  /// before it started) — keeps the observed delay; the others get the trace's typical delay,
  /// capped so that the unchanged replay still starts the op when it started.
  void computeDelays() {
    std::vector<double> prev_end = program_.slot_free;
    std::vector<Constraints> all(launch_order_.size());
    std::vector<double> launch_bound, queue_bound;
    for (uint32_t local = 0; local < launch_order_.size(); ++local) {
      const OpInfo& info = ops_[launch_order_[local]];
      Constraints& c = all[local];
      c.start = at(model_.events[info.event].start_ns);
      c.enqueue = at(info.enqueue);
      c.returned = info.call != kNoIndex ? at(model_.events[info.call].end_ns()) : c.enqueue;
      c.queue = prev_end[info.slot];
      ReplayOp& op = program_.ops[local];
      if (c.start > std::max(c.enqueue, c.queue)) op.dep = dependencyOf(info, local);
      if (op.dep != kNoOp) c.dep = at(endOf(launch_order_[op.dep]));
      if (c.enqueue >= c.queue && c.enqueue >= c.dep)
        launch_bound.push_back(c.start - c.enqueue);
      else if (c.queue >= c.dep)
        queue_bound.push_back(c.start - c.queue);
      prev_end[info.slot] = at(model_.events[info.event].end_ns());
    }
    const double typical_launch = std::max(0.0, upperMedian(std::move(launch_bound)));
    const double typical_queue = std::max(0.0, upperMedian(std::move(queue_bound)));
    for (uint32_t local = 0; local < all.size(); ++local) {
      const Constraints& c = all[local];
      ReplayOp& op = program_.ops[local];
      op.launch_delay = std::max(0.0, std::min(typical_launch, c.start - c.enqueue));
      op.queue_delay = std::max(0.0, std::min(typical_queue, c.start - c.queue));
      op.dep_delay = 0;
      const double binding = std::max({c.enqueue, c.queue, c.dep});
      const double observed = std::max(0.0, c.start - binding);
      if (binding == c.enqueue) {
        op.launch_delay = observed;
        // Long after its call returned: a wait the trace does not explain. Pinned on top of
        // the observed delay, so that the pin only ever holds the op back.
        if (c.start - c.returned > kExternalWaitNs && !runsWithPeers())
          op.pinned = c.start - program_.start;
      } else if (binding == c.queue) {
        op.queue_delay = observed;
      } else {
        op.dep_delay = observed;
      }
    }
  }

  bool runsWithPeers() {
    if (!runs_with_peers_) runs_with_peers_ = analyzer::runsWithPeers(model_);
    return *runs_with_peers_;
  }

  struct Constraints {
    double start = 0;
    double enqueue = 0;
    double returned = 0;  // when the launch call returned (the enqueue time without a call)
    double queue = -1e300;
    double dep = -1e300;
  };

  uint32_t dependencyOf(const OpInfo& info, uint32_t local) const {
    const Event& e = model_.events[info.event];
    const int32_t device = model_.deviceOf(e);
    auto it = std::upper_bound(by_end_.begin(), by_end_.end(), e.start_ns,
                               [this](int64_t t, uint32_t k) { return t < endOf(k); });
    while (it != by_end_.begin()) {
      --it;
      if (endOf(*it) < e.start_ns - kDependencyToleranceNs) break;
      const OpInfo& other = ops_[*it];
      const uint32_t other_local = local_of_[*it];
      if (other.slot == info.slot || other_local == kNoOp || other_local >= local) continue;
      if (model_.deviceOf(model_.events[other.event]) == device) return other_local;
    }
    return kNoOp;
  }

  void markDeviceFixes() {
    for (size_t f = 0; f < fixes_.size() && f < StepReplay::kMaxFixes; ++f) {
      const uint64_t bit = uint64_t{1} << f;
      for (uint32_t event : fixes_[f].device_ops) {
        const uint32_t k = opIndexOf(event);
        if (k != kNoIndex && local_of_[k] != kNoOp) program_.ops[local_of_[k]].mask |= bit;
      }
      for (uint32_t call : fixes_[f].waits) {
        auto it = wait_item_of_.find(call);
        if (it != wait_item_of_.end()) program_.items[it->second].mask |= bit;
      }
    }
  }

  /// A trace time as the program holds it: ns after the window's start. As epoch ns (~1.7e18,
  /// older Kineto) doubles are 256 ns apart: the replay rounded and savings moved with the
  /// clock's origin (SL303 1.200 vs 1.186 ms on the ResNet-50 fixture rebased to zero).
  double at(int64_t t) const { return static_cast<double>(t - start_); }

  /// The window as observed, by the replay's own formula: the later of the host timeline's
  /// end and the last end of an op launched in it.
  double observedLength() const {
    int64_t end = host_end_;
    for (uint32_t k : launch_order_) end = std::max(end, endOf(k));
    return static_cast<double>(end - start_);
  }

  const TraceModel& model_;
  const StepResult& steps_;
  const std::vector<FixEffect>& fixes_;
  std::optional<RecordedStarts> recorded_;  // made by build()
  std::optional<bool> runs_with_peers_;     // asked only when an op waited that long
  int64_t start_ = 0;
  int64_t host_end_ = 0;
  ReplayProgram program_;
  std::map<std::pair<int32_t, int32_t>, uint32_t> slots_;
  std::vector<OpInfo> ops_;       // sorted by launch
  std::vector<uint32_t> by_end_;  // indices into ops_, sorted by observed end
  std::vector<HostWait> waits_;   // in start order after addBlockingCopies()
  std::vector<uint32_t> local_of_;  // ops_ index -> program op (kNoOp: not launched in the window)
  std::vector<uint32_t> launch_order_;       // program op -> ops_ index
  std::map<uint32_t, uint32_t> op_index_;    // op event -> ops_ index
  std::map<uint32_t, size_t> wait_item_of_;  // wait call event -> item
  HostFixMask fix_mask_;
  bool count_only_ = false;  // countItems(): items counted, not made
  size_t item_count_ = 0;
  ReplayItem::Kind last_kind_ = ReplayItem::kWork;  // of the last item made or counted
  uint64_t last_mask_ = 0;
};

}  // namespace

ReplayProgram buildReplayProgram(const TraceModel& model, const StepResult& steps, size_t first,
                                 size_t last, const std::vector<FixEffect>& fixes) {
  return Builder(model, steps, first, last, fixes).build();
}

size_t countReplayItems(const TraceModel& model, const StepResult& steps, size_t first, size_t last,
                        const std::vector<FixEffect>& fixes) {
  return Builder(model, steps, first, last, fixes).countItems();
}

}  // namespace steplint::analyzer
