#include "category_registries.h"
#include "transfer/sl201_pageable_h2d_copy.h"
#include "transfer/sl202_host_sync_in_step.h"
#include "transfer/sl203_blocking_copy_with_sync.h"
#include "transfer/sl204_cpu_tensor_moved_to_gpu.h"
#include "transfer/sl205_empty_cache_in_loop.h"
#include "transfer/sl206_excessive_synchronize.h"
#include "transfer/sl207_device_to_device_copy_churn.h"

namespace steplint::rules {

void registerTransferRules(analyzer::RuleRegistry& registry) {
  registry.add<PageableH2dCopyRule>();
  registry.add<HostSyncInStepRule>();
  registry.add<BlockingCopyWithSyncRule>();
  registry.add<CpuTensorMovedToGpuRule>();
  registry.add<EmptyCacheInLoopRule>();
  registry.add<ExcessiveSynchronizeRule>();
  registry.add<DeviceToDeviceCopyChurnRule>();
}

}  // namespace steplint::rules
