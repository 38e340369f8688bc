#include "category_registries.h"
#include "input_pipeline/sl101_dataloader_wait.h"

namespace steplint::rules {

void registerInputPipelineRules(analyzer::RuleRegistry& registry) {
  registry.add<DataLoaderWaitRule>();
}

}  // namespace steplint::rules
