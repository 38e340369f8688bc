list(APPEND STEPLINT_RULE_SOURCES
  src/distributed/registry.cpp
  src/distributed/comm_util.cpp
  src/distributed/sl501_dataparallel_on_multi_gpu.cpp
  src/distributed/sl502_ddp_without_nccl.cpp
  src/distributed/sl503_exposed_communication.cpp
)
