list(APPEND STEPLINT_RULE_SOURCES
  src/transfer/registry.cpp
)
