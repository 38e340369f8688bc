// One registration function per rule, defined in the rule's own .cpp (no per-rule headers).
// Sorted by code; scripts/add_rule.py inserts new rules here.
#include "category_registries.h"

namespace steplint::rules {

void registerSl601(analyzer::RuleRegistry& registry);  // grad-zeroed-not-none
void registerSl602(analyzer::RuleRegistry& registry);  // per-parameter-optimizer-step
void registerSl603(analyzer::RuleRegistry& registry);  // torch-tensor-copy
void registerSl604(analyzer::RuleRegistry& registry);  // gpu-idle-while-cpu-busy
void registerSl605(analyzer::RuleRegistry& registry);  // adam-l2-weight-decay
void registerSl606(analyzer::RuleRegistry& registry);  // per-parameter-grad-clipping

void registerOptimizerRules(analyzer::RuleRegistry& registry) {
  registerSl601(registry);
  registerSl602(registry);
  registerSl603(registry);
  registerSl604(registry);
  registerSl605(registry);
  registerSl606(registry);
}

}  // namespace steplint::rules
