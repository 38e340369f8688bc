list(APPEND STEPLINT_RULE_SOURCES
  src/gpu_execution/registry.cpp
)
