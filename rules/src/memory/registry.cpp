#include "category_registries.h"
#include "memory/sl401_device_memory_near_capacity.h"
#include "memory/sl402_gpu_memory_headroom.h"
#include "memory/sl403_batch_size_not_aligned.h"
#include "memory/sl404_memory_grows_across_steps.h"

namespace steplint::rules {

void registerMemoryRules(analyzer::RuleRegistry& registry) {
  registry.add<DeviceMemoryNearCapacityRule>();
  registry.add<GpuMemoryHeadroomRule>();
  registry.add<BatchSizeNotAlignedRule>();
  registry.add<MemoryGrowsAcrossStepsRule>();
}

}  // namespace steplint::rules
