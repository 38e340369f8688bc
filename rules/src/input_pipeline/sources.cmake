list(APPEND STEPLINT_RULE_SOURCES
  src/input_pipeline/registry.cpp
  src/input_pipeline/sl101_dataloader_wait.cpp
)
