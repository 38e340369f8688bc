list(APPEND STEPLINT_RULE_SOURCES
  src/gpu_execution/registry.cpp
  src/gpu_execution/tensor_core_eligible.cpp
  src/gpu_execution/kernel_precision.cpp
  src/gpu_execution/sl301_low_gpu_utilization.cpp
  src/gpu_execution/sl302_launch_bound_small_kernels.cpp
  src/gpu_execution/sl303_fp32_matmul_on_tensor_cores.cpp
  src/gpu_execution/sl304_cudnn_benchmark_off.cpp
  src/gpu_execution/sl305_fp32_training_without_autocast.cpp
)
