// The built-in job rules (SL7xx), registered apart from the per-trace catalog (builtin.h)
// because they read a job's cross-rank analysis, not a trace (analyzer/job_rule.h).
#pragma once

#include "steplint/analyzer/job_rule.h"

namespace steplint::rules {

/// Adds every job rule, in code order. The one place job rules are registered.
void registerJobRules(analyzer::JobRuleRegistry& registry);

}  // namespace steplint::rules
