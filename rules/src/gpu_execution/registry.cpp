// One registration function per rule, defined in the rule's own .cpp (no per-rule headers).
// Sorted by code; scripts/add_rule.py inserts new rules here.
#include "category_registries.h"

namespace steplint::rules {

void registerSl301(analyzer::RuleRegistry& registry);  // low-gpu-utilization
void registerSl302(analyzer::RuleRegistry& registry);  // launch-bound-small-kernels
void registerSl303(analyzer::RuleRegistry& registry);  // fp32-matmul-on-tensor-cores
void registerSl304(analyzer::RuleRegistry& registry);  // cudnn-benchmark-off
void registerSl305(analyzer::RuleRegistry& registry);  // fp32-training-without-autocast

void registerGpuExecutionRules(analyzer::RuleRegistry& registry) {
  registerSl301(registry);
  registerSl302(registry);
  registerSl303(registry);
  registerSl304(registry);
  registerSl305(registry);
}

}  // namespace steplint::rules
