#include "category_registries.h"
#include "trace_health/sl001_dropped_trace_data.h"
#include "trace_health/sl002_missing_gpu_activity.h"

namespace steplint::rules {

void registerTraceHealthRules(analyzer::RuleRegistry& registry) {
  registry.add<DroppedTraceDataRule>();
  registry.add<MissingGpuActivityRule>();
}

}  // namespace steplint::rules
