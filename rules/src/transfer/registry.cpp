// One registration function per rule, defined in the rule's own .cpp (no per-rule headers).
// Sorted by code; scripts/add_rule.py inserts new rules here.
#include "category_registries.h"

namespace steplint::rules {

void registerSl201(analyzer::RuleRegistry& registry);  // pageable-h2d-copy
void registerSl202(analyzer::RuleRegistry& registry);  // host-sync-in-step
void registerSl203(analyzer::RuleRegistry& registry);  // blocking-copy-with-sync
void registerSl204(analyzer::RuleRegistry& registry);  // cpu-tensor-moved-to-gpu
void registerSl205(analyzer::RuleRegistry& registry);  // empty-cache-in-loop
void registerSl206(analyzer::RuleRegistry& registry);  // excessive-synchronize
void registerSl207(analyzer::RuleRegistry& registry);  // device-to-device-copy-churn

void registerTransferRules(analyzer::RuleRegistry& registry) {
  registerSl201(registry);
  registerSl202(registry);
  registerSl203(registry);
  registerSl204(registry);
  registerSl205(registry);
  registerSl206(registry);
  registerSl207(registry);
}

}  // namespace steplint::rules
