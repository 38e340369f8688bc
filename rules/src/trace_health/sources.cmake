list(APPEND STEPLINT_RULE_SOURCES
  src/trace_health/registry.cpp
  src/trace_health/sl001_dropped_trace_data.cpp
  src/trace_health/sl002_missing_gpu_activity.cpp
)
