list(APPEND STEPLINT_RULE_SOURCES
  src/input_pipeline/registry.cpp
)
