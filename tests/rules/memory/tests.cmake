list(APPEND STEPLINT_RULE_TESTS
  memory/sl401_device_memory_near_capacity_test.cpp
  memory/sl402_gpu_memory_headroom_test.cpp
  memory/sl403_batch_size_not_aligned_test.cpp
  memory/sl404_memory_grows_across_steps_test.cpp
)
