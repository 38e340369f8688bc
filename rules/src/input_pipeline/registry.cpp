// One registration function per rule, defined in the rule's own .cpp (no per-rule headers).
// Sorted by code; scripts/add_rule.py inserts new rules here.
#include "category_registries.h"

namespace steplint::rules {

void registerSl101(analyzer::RuleRegistry& registry);  // dataloader-wait
void registerSl102(analyzer::RuleRegistry& registry);  // dataloader-workers-exceed-cores

void registerInputPipelineRules(analyzer::RuleRegistry& registry) {
  registerSl101(registry);
  registerSl102(registry);
}

}  // namespace steplint::rules
