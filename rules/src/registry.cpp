#include "category_registries.h"
#include "steplint/analyzer/regression.h"
#include "steplint/rules/builtin.h"
#include "steplint/rules/job_rules.h"

namespace steplint::rules {

void registerBuiltinRules(analyzer::RuleRegistry& registry) {
  registerTraceHealthRules(registry);
  registerInputPipelineRules(registry);
  registerTransferRules(registry);
  registerGpuExecutionRules(registry);
  registerMemoryRules(registry);
  registerDistributedRules(registry);
  registerOptimizerRules(registry);
  // The job rules run apart, over a job (registerJobRules), and the regression gate against
  // a base run (check --compare); their codes and names are known here too, so --select,
  // --ignore and steplint.toml cover them.
  analyzer::JobRuleRegistry job_rules;
  registerJobRules(job_rules);
  for (const auto& rule : job_rules.rules()) registry.addApartRuleInfo(rule->info());
  registry.addApartRuleInfo(analyzer::regressionRuleInfo());
}

}  // namespace steplint::rules
