// The built-in rule catalog.
#pragma once

#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

/// Adds every built-in rule, in code order, and the job rules' codes and names (job_rules.h).
/// The one place rules are registered.
void registerBuiltinRules(analyzer::RuleRegistry& registry);

}  // namespace steplint::rules
