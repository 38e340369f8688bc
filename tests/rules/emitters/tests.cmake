# Emitter tests: each --format rendered from one hand-built report (emitter_fixture.h).
list(APPEND STEPLINT_RULE_TESTS
  emitters/registry_test.cpp
  emitters/text_emitter_test.cpp
  emitters/json_emitter_test.cpp
  emitters/sarif_emitter_test.cpp
  emitters/junit_emitter_test.cpp
  emitters/github_emitter_test.cpp
  emitters/markdown_emitter_test.cpp
  emitters/hostile_text_test.cpp
  emitters/report_warnings_test.cpp
)
