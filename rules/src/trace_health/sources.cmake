list(APPEND STEPLINT_RULE_SOURCES
  src/trace_health/registry.cpp
)
