// The built-in rule catalog.
#pragma once

#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

/// Adds every built-in rule, in code order. The one place rules are registered.
void registerBuiltinRules(analyzer::RuleRegistry& registry);

}  // namespace steplint::rules
