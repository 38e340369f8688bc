// One registration function per rule, defined in the rule's own .cpp (no per-rule headers).
// Sorted by code; scripts/add_rule.py inserts new rules here.
#include "category_registries.h"

namespace steplint::rules {

void registerSl401(analyzer::RuleRegistry& registry);  // device-memory-near-capacity
void registerSl402(analyzer::RuleRegistry& registry);  // gpu-memory-headroom
void registerSl403(analyzer::RuleRegistry& registry);  // batch-size-not-aligned
void registerSl404(analyzer::RuleRegistry& registry);  // memory-grows-across-steps

void registerMemoryRules(analyzer::RuleRegistry& registry) {
  registerSl401(registry);
  registerSl402(registry);
  registerSl403(registry);
  registerSl404(registry);
}

}  // namespace steplint::rules
