# Input-pipeline rules (SL1xx). Paths are relative to tests/rules/.
list(APPEND STEPLINT_RULE_TESTS
  input_pipeline/sl101_dataloader_wait_test.cpp
  input_pipeline/sl102_dataloader_workers_exceed_cores_test.cpp
)
