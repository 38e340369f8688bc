list(APPEND STEPLINT_RULE_SOURCES
  src/memory/registry.cpp
  src/memory/sl401_device_memory_near_capacity.cpp
  src/memory/sl402_gpu_memory_headroom.cpp
  src/memory/sl403_batch_size_not_aligned.cpp
  src/memory/sl404_memory_grows_across_steps.cpp
)
