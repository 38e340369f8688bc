list(APPEND STEPLINT_RULE_SOURCES
  src/distributed/registry.cpp
)
