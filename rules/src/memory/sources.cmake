list(APPEND STEPLINT_RULE_SOURCES
  src/memory/registry.cpp
)
