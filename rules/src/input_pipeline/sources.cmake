list(APPEND STEPLINT_RULE_SOURCES
  src/input_pipeline/registry.cpp
  src/input_pipeline/sl101_dataloader_wait.cpp
  src/input_pipeline/sl102_dataloader_workers_exceed_cores.cpp
)
