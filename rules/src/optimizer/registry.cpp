#include "category_registries.h"
#include "optimizer/sl601_grad_zeroed_not_none.h"
#include "optimizer/sl602_per_parameter_optimizer_step.h"
#include "optimizer/sl604_gpu_idle_while_cpu_busy.h"

namespace steplint::rules {

void registerOptimizerRules(analyzer::RuleRegistry& registry) {
  registry.add<GradZeroedNotNoneRule>();
  registry.add<PerParameterOptimizerStepRule>();
  registry.add<GpuIdleWhileCpuBusyRule>();
}

}  // namespace steplint::rules
