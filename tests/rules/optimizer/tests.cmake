list(APPEND STEPLINT_RULE_TESTS
  optimizer/sl601_grad_zeroed_not_none_test.cpp
  optimizer/sl602_per_parameter_optimizer_step_test.cpp
  optimizer/sl603_torch_tensor_copy_test.cpp
  optimizer/sl604_gpu_idle_while_cpu_busy_test.cpp
  optimizer/sl605_adam_l2_weight_decay_test.cpp
  optimizer/sl606_per_parameter_grad_clipping_test.cpp
)
