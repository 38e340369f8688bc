#include "common/kernel_gaps.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "common/kernel_util.h"
#include "common/shared_data.h"
#include "steplint/analyzer/intervals.h"

namespace steplint::rules {
namespace {

using trace::Event;

struct Gap {
  int64_t start;
  int64_t length;
  uint32_t op;
};

DeviceGaps classify(const analyzer::AnalysisContext& context, int32_t device,
                    std::vector<const Event*>& ops, const StepWindow& w, int64_t threshold) {
  const trace::TraceModel& model = context.model();
  std::stable_sort(ops.begin(), ops.end(),
                   [](const Event* a, const Event* b) { return a->start_ns < b->start_ns; });
  DeviceGaps out;
  out.device = device;
  out.window_ns = w.length();
  std::vector<analyzer::Interval> ranges;
  ranges.reserve(ops.size());
  std::vector<Gap> host_gaps;
  int64_t frontier = w.start_ns;  // running max end of the device's ops
  for (const Event* op : ops) {
    ranges.push_back({op->start_ns, op->end_ns()});
    if (op->kind == trace::EventKind::kKernel && w.contains(op->start_ns))
      out.kernel_durations.push_back(op->dur_ns);
    const int64_t gap = std::min(op->start_ns, w.end_ns) - frontier;
    const bool launched_late =
        op->link != trace::kNoIndex && model.events[op->link].start_ns > frontier;
    if (gap > 0 && launched_late) {
      out.host_wait_ns += gap;
      host_gaps.push_back({frontier, gap, model.indexOf(*op)});
      if (gap < threshold) {
        out.launch_gap_ns += gap;
        ++out.launch_gap_count;
        out.launch_gap_ops.push_back(model.indexOf(*op));
      }
    }
    frontier = std::max(frontier, op->end_ns());
  }
  out.busy_ns =
      analyzer::IntervalSet::fromUnsorted(std::move(ranges)).overlapLength(w.start_ns, w.end_ns);
  std::stable_sort(host_gaps.begin(), host_gaps.end(),
                   [](const Gap& a, const Gap& b) { return a.length > b.length; });
  for (const Gap& g : host_gaps) {
    out.host_wait_ops.push_back(g.op);
    out.host_wait_ranges.push_back({g.start, g.start + g.length});
  }
  return out;
}

std::vector<DeviceGaps> deviceGaps(const analyzer::AnalysisContext& context,
                                   int64_t launch_gap_threshold_ns) {
  const StepWindow w = keptStepWindow(context);
  std::vector<DeviceGaps> out;
  if (w.empty() || w.length() <= 0) return out;
  const trace::TraceModel& model = context.model();
  std::map<int32_t, std::vector<const Event*>> by_device;
  for (const uint32_t i : common::kindIndex(context).device_ops) {
    const Event& e = model.events[i];
    if (e.end_ns() > w.start_ns && e.start_ns < w.end_ns)
      by_device[model.deviceOf(e)].push_back(&e);
  }
  for (auto& [device, ops] : by_device)
    out.push_back(classify(context, device, ops, w, launch_gap_threshold_ns));
  return out;
}

}  // namespace

const std::vector<DeviceGaps>& computeDeviceGaps(const analyzer::AnalysisContext& context,
                                                 int64_t launch_gap_threshold_ns) {
  return context.shared<std::vector<DeviceGaps>>(
      "common.device_gaps." + std::to_string(launch_gap_threshold_ns),
      [&] { return deviceGaps(context, launch_gap_threshold_ns); });
}

}  // namespace steplint::rules
