// GPU idle-time classification per stream (docs/reference/peer-tools.md §2.4, HTA's
// get_idle_time_breakdown), in ns.
#include "steplint/analyzer/idle.h"

#include <algorithm>
#include <map>
#include <utility>

#include "steplint/analyzer/intervals.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::TraceModel;

using StreamKey = std::pair<int32_t, int64_t>;  // (device, stream)

int64_t streamOf(const TraceModel& model, const Event& e) {
  const trace::GpuDetail* g = model.gpu(e);
  return g && g->stream >= 0 ? g->stream : model.tracks[e.track].tid;
}

// Kernels, copies and memsets only: cuda_sync records measure host blocking, not stream work.
std::map<StreamKey, std::vector<const Event*>> opsByStream(const TraceModel& model,
                                                           const DeviceOpFilter& keep) {
  std::map<StreamKey, std::vector<const Event*>> streams;
  for (const Event& e : model.events)
    if (trace::isDeviceOp(e.kind) && (!keep || keep(e)))
      streams[{model.deviceOf(e), streamOf(model, e)}].push_back(&e);
  const auto by_start_then_end = [](const Event* a, const Event* b) {
    return a->start_ns != b->start_ns ? a->start_ns < b->start_ns : a->end_ns() < b->end_ns();
  };
  // A stream is one track, already in start order: checking is cheaper than re-sorting.
  for (auto& [key, ops] : streams)
    if (!std::is_sorted(ops.begin(), ops.end(), by_start_then_end))
      std::stable_sort(ops.begin(), ops.end(), by_start_then_end);
  return streams;
}

// Gap before `op`, against the previous op in start order (as HTA; not the running max end).
void classifyGap(const TraceModel& model, const Event& prev, const Event& op,
                 const IdleOptions& options, StreamIdle& out) {
  const int64_t gap = op.start_ns - prev.end_ns();
  if (gap <= 0) return;  // overlapping or back-to-back ops: no idle time
  const bool launched_late =
      op.link != trace::kNoIndex && model.events[op.link].start_ns > prev.end_ns();
  if (launched_late)
    out.host_wait_ns += gap;
  else if (gap < options.kernel_wait_threshold_ns)
    out.kernel_wait_ns += gap;
  else
    out.other_ns += gap;
}

StreamIdle summarizeStream(const TraceModel& model, StreamKey key,
                           const std::vector<const Event*>& ops, const IdleOptions& options) {
  StreamIdle s;
  s.device = key.first;
  s.stream = key.second;
  // The ops are in start order, so their union is summed as they come instead of building an
  // IntervalSet of every op.
  SortedUnionLength busy;
  int64_t last_end = ops.front()->end_ns();
  for (size_t i = 0; i < ops.size(); ++i) {
    last_end = std::max(last_end, ops[i]->end_ns());
    if (i > 0) classifyGap(model, *ops[i - 1], *ops[i], options, s);
    busy.add(ops[i]->start_ns, ops[i]->end_ns());
  }
  s.span_ns = last_end - ops.front()->start_ns;
  s.busy_ns = busy.length();
  return s;
}

}  // namespace

std::vector<StreamIdle> computeIdleBreakdown(const TraceModel& model, const IdleOptions& options) {
  return computeIdleBreakdown(model, options, DeviceOpFilter());
}

std::vector<StreamIdle> computeIdleBreakdown(const TraceModel& model, const IdleOptions& options,
                                             const DeviceOpFilter& keep) {
  std::vector<StreamIdle> out;
  for (const auto& [key, ops] : opsByStream(model, keep))
    out.push_back(summarizeStream(model, key, ops, options));
  return out;
}

}  // namespace steplint::analyzer
