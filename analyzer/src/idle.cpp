// GPU idle-time classification per stream (docs/reference/peer-tools.md §2.4, HTA's
// get_idle_time_breakdown), in ns.
#include "steplint/analyzer/idle.h"

#include <algorithm>
#include <map>
#include <utility>

#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/start_order.h"

namespace steplint::analyzer {
namespace {

using trace::Event;
using trace::TraceModel;

using StreamKey = std::pair<int32_t, int64_t>;  // (device, stream)

int64_t streamOf(const TraceModel& model, const Event& e) {
  const trace::GpuDetail* g = model.gpu(e);
  return g && g->stream >= 0 ? g->stream : model.tracks[e.track].tid;
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

/// One stream's ops as they come in start order (start_order.h), classified against the one
/// before in (start, end) order, without gathering them all: ops are held back in batches of
/// whole start times, each start time's ops put in end order (stably, as sorting the stream
/// did), then classified. Batches rather than op by op: classifying reads each op's launch
/// call, a cache miss, and a tight loop over a batch overlaps them.
class StreamSweep {
 public:
  StreamSweep(const TraceModel& model, StreamKey key, const IdleOptions& options)
      : model_(model), options_(options) {
    out_.device = key.first;
    out_.stream = key.second;
  }

  void add(const Event& op) {
    if (held_.size() >= kBatch && op.start_ns != held_.back()->start_ns) flush();
    held_.push_back(&op);
  }

  StreamIdle finish() {
    flush();
    out_.span_ns = last_end_ - first_start_;
    out_.busy_ns = busy_.length();
    return out_;
  }

 private:
  void flush() {
    sortTies();
    for (const Event* op : held_) {
      if (prev_ == nullptr) {
        first_start_ = op->start_ns;
        last_end_ = op->end_ns();
      } else {
        classifyGap(model_, *prev_, *op, options_, out_);
      }
      last_end_ = std::max(last_end_, op->end_ns());
      busy_.add(op->start_ns, op->end_ns());
      prev_ = op;
    }
    held_.clear();
  }

  /// Each run of one start time into end order. A run is nearly always one op; std::stable_sort
  /// would allocate a buffer for each, so small runs take an insertion sort (stable too) and
  /// only big ones (a hostile trace's one timestamp) the library's.
  void sortTies() {
    const auto by_end = [](const Event* a, const Event* b) { return a->end_ns() < b->end_ns(); };
    for (size_t first = 0, last; first < held_.size(); first = last) {
      last = first + 1;
      while (last < held_.size() && held_[last]->start_ns == held_[first]->start_ns) ++last;
      if (last - first > kSmallRun) {
        std::stable_sort(held_.begin() + static_cast<std::ptrdiff_t>(first),
                         held_.begin() + static_cast<std::ptrdiff_t>(last), by_end);
        continue;
      }
      for (size_t i = first + 1; i < last; ++i)
        for (size_t j = i; j > first && by_end(held_[j], held_[j - 1]); --j)
          std::swap(held_[j], held_[j - 1]);
    }
  }

  static constexpr size_t kBatch = 256;
  static constexpr size_t kSmallRun = 16;

  const TraceModel& model_;
  const IdleOptions& options_;
  StreamIdle out_;
  std::vector<const Event*> held_;  // whole start times, not yet classified
  const Event* prev_ = nullptr;
  int64_t first_start_ = 0, last_end_ = 0;
  SortedUnionLength busy_;  // the union of the ops, summed as they come
};

}  // namespace

std::vector<StreamIdle> computeIdleBreakdown(const TraceModel& model, const IdleOptions& options) {
  return computeIdleBreakdown(model, options, DeviceOpFilter());
}

std::vector<StreamIdle> computeIdleBreakdown(const TraceModel& model, const IdleOptions& options,
                                             const DeviceOpFilter& keep) {
  // Kernels, copies and memsets only: cuda_sync records measure host blocking, not stream work.
  // In start order, each stream is classified as its ops come: gathering them per stream took
  // 48 MiB on a 5 GB trace, three times over (whole trace, steps' and HTA's windows).
  std::map<StreamKey, StreamSweep> streams;
  forEachInStartOrder(
      model, [&](const Event& e) { return trace::isDeviceOp(e.kind) && (!keep || keep(e)); },
      [&](const Event& op) {
        const StreamKey key{model.deviceOf(op), streamOf(model, op)};
        streams.try_emplace(key, model, key, options).first->second.add(op);
      });
  std::vector<StreamIdle> out;
  for (auto& [key, sweep] : streams) out.push_back(sweep.finish());
  return out;
}

}  // namespace steplint::analyzer
