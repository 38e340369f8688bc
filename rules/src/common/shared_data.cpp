#include "common/shared_data.h"

namespace steplint::rules::common {

KindIndex::KindIndex(const trace::TraceModel& model) {
  for (uint32_t i = 0; i < model.events.size(); ++i) {
    const trace::EventKind kind = model.events[i].kind;
    by_kind[static_cast<size_t>(kind)].push_back(i);
    if (trace::isDeviceOp(kind)) device_ops.push_back(i);
  }
}

const KindIndex& kindIndex(const analyzer::AnalysisContext& context) {
  return context.shared<KindIndex>("common.kind_index", [&] { return KindIndex(context.model()); });
}

const LaunchIndex& launchIndex(const analyzer::AnalysisContext& context) {
  return context.shared<LaunchIndex>("common.launch_index",
                                     [&] { return LaunchIndex(context.model()); });
}

const DeviceBusyTimeline& deviceBusyTimeline(const analyzer::AnalysisContext& context) {
  return context.shared<DeviceBusyTimeline>("common.device_busy",
                                            [&] { return DeviceBusyTimeline(context.model()); });
}

}  // namespace steplint::rules::common
