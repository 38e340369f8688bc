list(APPEND STEPLINT_RULE_SOURCES
  src/optimizer/registry.cpp
  src/optimizer/sl601_grad_zeroed_not_none.cpp
  src/optimizer/sl602_per_parameter_optimizer_step.cpp
  src/optimizer/sl603_torch_tensor_copy.cpp
  src/optimizer/sl604_gpu_idle_while_cpu_busy.cpp
  src/optimizer/sl605_adam_l2_weight_decay.cpp
  src/optimizer/sl605_adam_step_scan.cpp
  src/optimizer/sl606_clip_regions.cpp
  src/optimizer/sl606_per_parameter_grad_clipping.cpp
)
