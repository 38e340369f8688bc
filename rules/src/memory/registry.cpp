#include "category_registries.h"

namespace steplint::rules {

void registerMemoryRules(analyzer::RuleRegistry& registry) {
  (void)registry;  // rules of this category are added here, in code order
}

}  // namespace steplint::rules
