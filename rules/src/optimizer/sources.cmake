list(APPEND STEPLINT_RULE_SOURCES
  src/optimizer/registry.cpp
)
