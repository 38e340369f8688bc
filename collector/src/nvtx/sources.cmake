# NVTX injection source of steplint_collector (STEPLINT_WITH_NVTX). Paths relative to collector/.
set(STEPLINT_COLLECTOR_NVTX_SOURCES
  src/nvtx/nvtx_injection.cpp
)
