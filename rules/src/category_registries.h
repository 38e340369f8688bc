// One registration function per category, each defined in src/<category>/registry.cpp.
#pragma once

#include "steplint/analyzer/rule_registry.h"

namespace steplint::rules {

void registerTraceHealthRules(analyzer::RuleRegistry& registry);    // SL0xx
void registerInputPipelineRules(analyzer::RuleRegistry& registry);  // SL1xx
void registerTransferRules(analyzer::RuleRegistry& registry);       // SL2xx
void registerGpuExecutionRules(analyzer::RuleRegistry& registry);   // SL3xx
void registerMemoryRules(analyzer::RuleRegistry& registry);         // SL4xx
void registerDistributedRules(analyzer::RuleRegistry& registry);    // SL5xx
void registerOptimizerRules(analyzer::RuleRegistry& registry);      // SL6xx

}  // namespace steplint::rules
