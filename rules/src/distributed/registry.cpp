#include "category_registries.h"
#include "distributed/sl501_dataparallel_on_multi_gpu.h"
#include "distributed/sl502_ddp_without_nccl.h"
#include "distributed/sl503_exposed_communication.h"

namespace steplint::rules {

void registerDistributedRules(analyzer::RuleRegistry& registry) {
  registry.add<DataparallelOnMultiGpuRule>();
  registry.add<DdpWithoutNcclRule>();
  registry.add<ExposedCommunicationRule>();
}

}  // namespace steplint::rules
