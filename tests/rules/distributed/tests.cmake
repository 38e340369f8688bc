list(APPEND STEPLINT_RULE_TESTS
  distributed/sl501_dataparallel_on_multi_gpu_test.cpp
  distributed/sl502_ddp_without_nccl_test.cpp
  distributed/sl503_exposed_communication_test.cpp
)
