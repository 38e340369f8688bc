#include "common/kernel_gaps.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "common/kernel_util.h"
#include "steplint/analyzer/intervals.h"
#include "steplint/analyzer/start_order.h"

namespace steplint::rules {
namespace {

using trace::Event;

struct Gap {
  int64_t start;
  int64_t length;
  uint32_t op;
};

/// One device's ops in the window, met in start order (ties in event order): the gaps against
/// the running end of the ops before, and the busy union, as the ops come.
class DeviceSweep {
 public:
  DeviceSweep(const trace::TraceModel& model, int32_t device, const StepWindow& w,
              int64_t threshold)
      : model_(model), w_(w), threshold_(threshold), frontier_(w.start_ns) {
    out_.device = device;
    out_.window_ns = w.length();
  }

  void add(const Event& op) {
    busy_.add(std::max(op.start_ns, w_.start_ns), std::min(op.end_ns(), w_.end_ns));
    if (op.kind == trace::EventKind::kKernel && w_.contains(op.start_ns))
      out_.kernel_durations.push_back(op.dur_ns);
    const int64_t gap = std::min(op.start_ns, w_.end_ns) - frontier_;
    const bool launched_late =
        op.link != trace::kNoIndex && model_.events[op.link].start_ns > frontier_;
    if (gap > 0 && launched_late) {
      out_.host_wait_ns += gap;
      host_gaps_.push_back({frontier_, gap, model_.indexOf(op)});
      if (gap < threshold_) {
        out_.launch_gap_ns += gap;
        ++out_.launch_gap_count;
        out_.launch_gap_ops.push_back(model_.indexOf(op));
      }
    }
    frontier_ = std::max(frontier_, op.end_ns());
  }

  DeviceGaps finish() {
    out_.busy_ns = busy_.length();
    std::stable_sort(host_gaps_.begin(), host_gaps_.end(),
                     [](const Gap& a, const Gap& b) { return a.length > b.length; });
    for (const Gap& g : host_gaps_) {
      out_.host_wait_ops.push_back(g.op);
      out_.host_wait_ranges.push_back({g.start, g.start + g.length});
    }
    return std::move(out_);
  }

 private:
  const trace::TraceModel& model_;
  StepWindow w_;
  int64_t threshold_;
  int64_t frontier_;                  // running max end of the device's ops
  analyzer::SortedUnionLength busy_;  // the ops clipped to the window
  std::vector<Gap> host_gaps_;
  DeviceGaps out_;
};

std::vector<DeviceGaps> deviceGaps(const analyzer::AnalysisContext& context,
                                   int64_t launch_gap_threshold_ns) {
  const StepWindow w = keptStepWindow(context);
  std::vector<DeviceGaps> out;
  if (w.empty() || w.length() <= 0) return out;
  const trace::TraceModel& model = context.model();
  // In start order, without gathering each device's ops and their intervals first (about
  // 70 MiB on a 10-million-event trace).
  std::map<int32_t, DeviceSweep> devices;
  analyzer::forEachInStartOrder(
      model,
      [&](const Event& e) {
        return trace::isDeviceOp(e.kind) && e.end_ns() > w.start_ns && e.start_ns < w.end_ns;
      },
      [&](const Event& e) {
        const int32_t device = model.deviceOf(e);
        devices.try_emplace(device, model, device, w, launch_gap_threshold_ns).first->second.add(e);
      });
  for (auto& [device, sweep] : devices) out.push_back(sweep.finish());
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
