#include "category_registries.h"
#include "gpu_execution/sl301_low_gpu_utilization.h"
#include "gpu_execution/sl302_launch_bound_small_kernels.h"
#include "gpu_execution/sl303_fp32_matmul_on_tensor_cores.h"
#include "gpu_execution/sl304_cudnn_benchmark_off.h"
#include "gpu_execution/sl305_fp32_training_without_autocast.h"

namespace steplint::rules {

void registerGpuExecutionRules(analyzer::RuleRegistry& registry) {
  registry.add<LowGpuUtilizationRule>();
  registry.add<LaunchBoundSmallKernelsRule>();
  registry.add<Fp32MatmulOnTensorCoresRule>();
  registry.add<CudnnBenchmarkOffRule>();
  registry.add<Fp32TrainingWithoutAutocastRule>();
}

}  // namespace steplint::rules
