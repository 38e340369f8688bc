// One registration function per rule, defined in the rule's own .cpp (no per-rule headers).
// Sorted by code; scripts/add_rule.py inserts new rules here.
#include "category_registries.h"

namespace steplint::rules {

void registerSl501(analyzer::RuleRegistry& registry);  // dataparallel-on-multi-gpu
void registerSl502(analyzer::RuleRegistry& registry);  // ddp-without-nccl
void registerSl503(analyzer::RuleRegistry& registry);  // exposed-communication

void registerDistributedRules(analyzer::RuleRegistry& registry) {
  registerSl501(registry);
  registerSl502(registry);
  registerSl503(registry);
}

}  // namespace steplint::rules
