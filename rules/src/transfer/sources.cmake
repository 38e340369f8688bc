list(APPEND STEPLINT_RULE_SOURCES
  src/transfer/registry.cpp
  src/transfer/sl201_pageable_h2d_copy.cpp
  src/transfer/sl202_host_sync_in_step.cpp
  src/transfer/sl203_blocking_copy_with_sync.cpp
  src/transfer/sl204_cpu_tensor_moved_to_gpu.cpp
  src/transfer/sl205_empty_cache_in_loop.cpp
  src/transfer/sl206_excessive_synchronize.cpp
  src/transfer/sl207_device_to_device_copy_churn.cpp
)
