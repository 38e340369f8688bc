# Trace-health rules (SL0xx). Paths are relative to tests/rules/.
list(APPEND STEPLINT_RULE_TESTS
  trace_health/sl001_dropped_trace_data_test.cpp
  trace_health/sl002_missing_gpu_activity_test.cpp
)
