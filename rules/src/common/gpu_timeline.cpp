#include "common/gpu_timeline.h"

#include <algorithm>

namespace steplint::rules::common {

DeviceBusyTimeline::DeviceBusyTimeline(const trace::TraceModel& model) {
  // Counted first so the buffers are allocated once: regrowing buffers of millions of
  // intervals re-faults their pages, which costs more than the counting pass.
  std::vector<int32_t> device_of_op;
  for (const trace::Event& e : model.events)
    if (trace::isDeviceOp(e.kind)) device_of_op.push_back(model.deviceOf(e));
  std::map<int32_t, size_t> counts;
  for (const int32_t device : device_of_op) ++counts[device];
  std::map<int32_t, analyzer::IntervalSetBuilder> raw;
  for (const auto& [device, n] : counts) raw[device].reserve(n);
  // With one device (most traces) the merged set is that device's: not built or kept twice.
  const bool several = counts.size() > 1;
  analyzer::IntervalSetBuilder all;
  if (several) all.reserve(device_of_op.size());
  size_t op = 0;
  for (const trace::Event& e : model.events) {
    if (!trace::isDeviceOp(e.kind)) continue;
    raw[device_of_op[op++]].add(e.start_ns, e.end_ns());
    if (several) all.add(e.start_ns, e.end_ns());
  }
  for (auto& [device, intervals] : raw) busy_.emplace(device, intervals.build());
  all_ = all.build();
}

std::vector<int32_t> DeviceBusyTimeline::devices() const {
  std::vector<int32_t> out;
  for (const auto& entry : busy_) out.push_back(entry.first);
  return out;
}

const analyzer::IntervalSet* DeviceBusyTimeline::set(int32_t device) const {
  const auto it = device < 0 ? busy_.end() : busy_.find(device);
  if (it != busy_.end()) return &it->second;
  return busy_.size() == 1 ? &busy_.begin()->second : &all_;  // all devices merged
}

analyzer::Interval DeviceBusyTimeline::idleGapAfterSync(int32_t device, int64_t sync_start_ns,
                                                        int64_t sync_end_ns,
                                                        int64_t limit_ns) const {
  const auto& items = set(device)->intervals();
  // First busy interval that ends after the return.
  auto it = std::upper_bound(items.begin(), items.end(), sync_end_ns,
                             [](int64_t t, const analyzer::Interval& iv) { return t < iv.end; });
  if (it != items.end() && it->start <= sync_end_ns) return {};  // still busy at the return
  if (it == items.end() || it->start >= limit_ns) return {};     // no more GPU work in this step
  if (it == items.begin()) return {};                            // no GPU work to wait for
  const int64_t drained = std::prev(it)->end;
  if (drained <= sync_start_ns) return {};  // the GPU was already idle: the sync did not wait
  return {drained, it->start};
}

int64_t DeviceBusyTimeline::idleWithin(int32_t device, int64_t start_ns, int64_t end_ns) const {
  if (end_ns <= start_ns) return 0;
  return (end_ns - start_ns) - set(device)->overlapLength(start_ns, end_ns);
}

}  // namespace steplint::rules::common
