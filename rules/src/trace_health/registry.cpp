// One registration function per rule, defined in the rule's own .cpp (no per-rule headers).
// Sorted by code; scripts/add_rule.py inserts new rules here.
#include "category_registries.h"

namespace steplint::rules {

void registerSl001(analyzer::RuleRegistry& registry);  // dropped-trace-data
void registerSl002(analyzer::RuleRegistry& registry);  // missing-gpu-activity

void registerTraceHealthRules(analyzer::RuleRegistry& registry) {
  registerSl001(registry);
  registerSl002(registry);
}

}  // namespace steplint::rules
