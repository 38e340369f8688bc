#include "steplint/trace/builder.h"

#include "memory_advice.h"
#include "steplint/trace/accelerator.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace steplint::trace {
namespace {

constexpr uint64_t kLabelBit = uint64_t{1} << 63;

bool isDeviceSide(EventKind k) {
  return isDeviceOp(k) || k == EventKind::kGpuUserAnnotation || k == EventKind::kCudaSync ||
         k == EventKind::kCudaEvent;
}

// Order within a track: by start, then longer first so parents precede their children.
bool eventBefore(const Event& a, const Event& b) {
  if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
  return a.dur_ns > b.dur_ns;
}

// Most of these arrive in time order already; sorting only what is not avoids the temporary
// buffers of a stable sort over hundreds of thousands of records.
template <typename Records>
void sortByTime(Records& records) {
  auto by_ts = [](const auto& a, const auto& b) { return a.ts_ns < b.ts_ns; };
  if (!std::is_sorted(records.begin(), records.end(), by_ts))
    std::stable_sort(records.begin(), records.end(), by_ts);
}

}  // namespace

uint64_t TraceBuilder::rowKey(RowId id) {
  if (id.label.empty()) return static_cast<uint64_t>(id.number) & ~kLabelBit;
  return kLabelBit | intern(id.label);
}

uint32_t TraceBuilder::track(RowId pid, RowId tid) {
  const std::pair<uint64_t, uint64_t> key{rowKey(pid), rowKey(tid)};
  auto [it, inserted] = track_index_.try_emplace(key, static_cast<uint32_t>(model_.tracks.size()));
  if (inserted) {
    Track t;
    t.pid = pid.label.empty() ? pid.number : 0;
    t.tid = tid.label.empty() ? tid.number : 0;
    t.pid_label = pid.label.empty() ? 0 : intern(pid.label);
    t.tid_label = tid.label.empty() ? 0 : intern(tid.label);
    t.sort_index = t.tid;
    model_.tracks.push_back(t);
  }
  return it->second;
}

uint32_t TraceBuilder::addEvent(const Event& e) {
  model_.events.push_back(e);
  return static_cast<uint32_t>(model_.events.size() - 1);
}

uint32_t TraceBuilder::addGpuDetail(const GpuDetail& d) {
  model_.gpu_details.push_back(d);
  return static_cast<uint32_t>(model_.gpu_details.size() - 1);
}

uint32_t TraceBuilder::addOpDetail(const OpDetail& d) {
  model_.op_details.push_back(d);
  return static_cast<uint32_t>(model_.op_details.size() - 1);
}

void TraceBuilder::setProcessName(RowId pid, std::string_view name) {
  // Process names apply to every track of the pid, including ones created later.
  const uint64_t key = rowKey(pid);
  pending_thread_names_[{key, ~uint64_t{0}}] = intern(name);
}

void TraceBuilder::setThreadName(RowId pid, RowId tid, std::string_view name) {
  model_.tracks[track(pid, tid)].thread_name = intern(name);
}

void TraceBuilder::setSortIndex(RowId pid, RowId tid, int64_t index) {
  model_.tracks[track(pid, tid)].sort_index = index;
}

uint32_t TraceBuilder::addComplete(EventKind kind, std::string_view name, int64_t pid, int64_t tid,
                                   double ts_us, double dur_us, int64_t external_id,
                                   int64_t correlation) {
  Event e;
  e.kind = kind;
  e.name = intern(name);
  e.category = intern(eventKindName(kind));
  e.track = track(pid, tid);
  e.start_ns = std::llround(ts_us * 1000.0);
  e.dur_ns = std::llround(dur_us * 1000.0);
  e.external_id = external_id;
  e.correlation = correlation;
  if (isDeviceSide(kind)) {
    GpuDetail d;
    d.device = static_cast<int32_t>(pid);
    d.stream = static_cast<int32_t>(tid);
    e.detail = addGpuDetail(d);
  }
  return addEvent(e);
}

void TraceBuilder::classifyTracks() {
  std::vector<uint8_t> has_cpu(model_.tracks.size(), 0), has_gpu(model_.tracks.size(), 0);
  for (const Event& e : model_.events) {
    if (isDeviceSide(e.kind))
      has_gpu[e.track] = 1;
    else if (isCpuRange(e.kind) || isLaunchApi(e.kind))
      has_cpu[e.track] = 1;
  }
  for (size_t i = 0; i < model_.tracks.size(); ++i) {
    Track& t = model_.tracks[i];
    t.kind = has_gpu[i] && !has_cpu[i] ? TrackKind::kGpuStream
             : has_cpu[i]              ? TrackKind::kCpuThread
                                       : TrackKind::kOther;
    auto name = pending_thread_names_.find(
        {t.pid_label ? (kLabelBit | t.pid_label) : (static_cast<uint64_t>(t.pid) & ~kLabelBit),
         ~uint64_t{0}});
    if (name != pending_thread_names_.end()) t.process_name = name->second;
  }
}

void TraceBuilder::sortEvents() {
  // Counting sort by track (one copy of the records), then sort each track by time;
  // Kineto writes most tracks already in order, so the per-track check usually skips it.
  auto& events = model_.events;
  std::vector<uint32_t> counts(model_.tracks.size() + 1, 0);
  for (const Event& e : events) ++counts[e.track + 1];
  for (size_t i = 1; i < counts.size(); ++i) counts[i] += counts[i - 1];
  for (size_t i = 0; i < model_.tracks.size(); ++i) {
    model_.tracks[i].first_event = counts[i];
    model_.tracks[i].event_count = counts[i + 1] - counts[i];
  }
  std::vector<Event> sorted;
  reserveHuge(sorted, events.size());
  sorted.resize(events.size());
  for (const Event& e : events) sorted[counts[e.track]++] = e;
  events.swap(sorted);
  std::vector<Event>().swap(sorted);
  for (const Track& t : model_.tracks) {
    auto b = events.begin() + t.first_event, e = b + t.event_count;
    if (!std::is_sorted(b, e, eventBefore)) std::stable_sort(b, e, eventBefore);
  }
}

void TraceBuilder::nestTrack(Track& t) {
  std::vector<uint32_t> stack;
  for (uint32_t i = t.first_event; i < t.first_event + t.event_count; ++i) {
    Event& e = model_.events[i];
    while (!stack.empty() && model_.events[stack.back()].end_ns() <= e.start_ns) stack.pop_back();
    if (!stack.empty()) {
      const Event& top = model_.events[stack.back()];
      if (e.end_ns() > top.end_ns()) {
        // Partially overlapping sibling (async code, torchtune): keep it, one lane deeper.
        e.flags |= kFlagOverlapsSibling;
        model_.stats.add(Stat::overlapping_siblings);
      }
      e.parent = stack.back();
      if (top.depth == UINT16_MAX) model_.stats.add(Stat::depth_saturated);
      e.depth = top.depth == UINT16_MAX ? UINT16_MAX : static_cast<uint16_t>(top.depth + 1);
    }
    t.max_depth = std::max(t.max_depth, e.depth);
    stack.push_back(i);
  }
}

void TraceBuilder::linkEvents() {
  auto& events = model_.events;
  std::unordered_map<int64_t, uint32_t> by_correlation;
  std::unordered_map<int64_t, uint32_t> by_external_id;
  by_correlation.reserve(events.size() / 4);
  by_external_id.reserve(events.size() / 2);
  for (uint32_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (isLaunchApi(e.kind) && e.correlation >= 0) by_correlation.try_emplace(e.correlation, i);
    // External id 0 means "none" in legacy traces (tb_plugin hangs those from a root).
    if ((e.kind == EventKind::kCpuOp || e.kind == EventKind::kUserAnnotation) && e.external_id > 0)
      by_external_id.try_emplace(e.external_id, i);
  }
  for (uint32_t i = 0; i < events.size(); ++i) {
    Event& e = events[i];
    if (isDeviceSide(e.kind) && e.kind != EventKind::kGpuUserAnnotation) {
      auto it = e.correlation >= 0 ? by_correlation.find(e.correlation) : by_correlation.end();
      if (it == by_correlation.end()) {
        if (isDeviceOp(e.kind)) model_.stats.add(Stat::device_op_without_launch);
        continue;
      }
      e.link = it->second;
      const int64_t call_ext = events[it->second].external_id;
      if (isDeviceOp(e.kind) && e.external_id > 0 && call_ext > 0 && call_ext != e.external_id)
        model_.stats.add(Stat::external_id_mismatch);
    } else if (isLaunchApi(e.kind)) {
      auto it = e.external_id > 0 ? by_external_id.find(e.external_id) : by_external_id.end();
      if (it != by_external_id.end()) {
        e.link = it->second;
        continue;
      }
      // No External id: the innermost enclosing CPU range on the same thread issued it.
      uint32_t p = e.parent;
      while (p != kNoIndex && !isCpuRange(events[p].kind)) p = events[p].parent;
      if (p != kNoIndex)
        e.link = p;
      else
        model_.stats.add(Stat::launch_without_op);
    }
  }
}

void TraceBuilder::finalize() {
  classifyTracks();
  sortEvents();
  for (Track& t : model_.tracks) nestTrack(t);
  linkEvents();
  // After the import: deviceProperties may follow traceEvents in the file.
  model_.metadata.accelerator = detectAccelerator(model_);
  sortByTime(model_.memory_events);
  sortByTime(model_.instants);
  sortByTime(model_.counters);
  sortByTime(model_.flows);
  auto by_owner = [](const CollectiveDetail& a, const CollectiveDetail& b) {
    return std::make_pair(a.on_device, a.owner) < std::make_pair(b.on_device, b.owner);
  };
  auto& collectives = model_.collectives;
  if (!std::is_sorted(collectives.begin(), collectives.end(), by_owner))
    std::stable_sort(collectives.begin(), collectives.end(), by_owner);
}

}  // namespace steplint::trace
