list(APPEND STEPLINT_RULE_TESTS
  job/job_rules_test.cpp
)
