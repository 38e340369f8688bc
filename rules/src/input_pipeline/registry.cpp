#include "category_registries.h"
#include "input_pipeline/sl101_dataloader_wait.h"
#include "input_pipeline/sl102_dataloader_workers_exceed_cores.h"

namespace steplint::rules {

void registerInputPipelineRules(analyzer::RuleRegistry& registry) {
  registry.add<DataLoaderWaitRule>();
  registry.add<DataLoaderWorkersExceedCoresRule>();
}

}  // namespace steplint::rules
