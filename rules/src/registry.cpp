#include "category_registries.h"
#include "steplint/rules/builtin.h"

namespace steplint::rules {

void registerBuiltinRules(analyzer::RuleRegistry& registry) {
  registerTraceHealthRules(registry);
  registerInputPipelineRules(registry);
  registerTransferRules(registry);
  registerGpuExecutionRules(registry);
  registerMemoryRules(registry);
  registerDistributedRules(registry);
  registerOptimizerRules(registry);
}

}  // namespace steplint::rules
