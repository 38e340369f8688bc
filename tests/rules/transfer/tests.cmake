# Transfer rules (SL2xx). Paths are relative to tests/rules/.
list(APPEND STEPLINT_RULE_TESTS
  transfer/sl201_pageable_h2d_copy_test.cpp
  transfer/sl202_host_sync_in_step_test.cpp
  transfer/sl203_blocking_copy_with_sync_test.cpp
  transfer/sl204_cpu_tensor_moved_to_gpu_test.cpp
  transfer/sl205_empty_cache_in_loop_test.cpp
  transfer/sl206_excessive_synchronize_test.cpp
  transfer/sl207_device_to_device_copy_churn_test.cpp
)
