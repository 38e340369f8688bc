#include "category_registries.h"
#include "optimizer/sl601_grad_zeroed_not_none.h"
#include "optimizer/sl602_per_parameter_optimizer_step.h"
#include "optimizer/sl603_torch_tensor_copy.h"
#include "optimizer/sl604_gpu_idle_while_cpu_busy.h"
#include "optimizer/sl605_adam_l2_weight_decay.h"
#include "optimizer/sl606_per_parameter_grad_clipping.h"

namespace steplint::rules {

void registerOptimizerRules(analyzer::RuleRegistry& registry) {
  registry.add<GradZeroedNotNoneRule>();
  registry.add<PerParameterOptimizerStepRule>();
  registry.add<TorchTensorCopyRule>();
  registry.add<GpuIdleWhileCpuBusyRule>();
  registry.add<AdamL2WeightDecayRule>();
  registry.add<PerParameterGradClippingRule>();
}

}  // namespace steplint::rules
