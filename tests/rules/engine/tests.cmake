# Rule-engine tests: configuration, selection, baseline, suggestions, and the catalog check
# (every registered rule has a well-formed doc page). Paths are relative to tests/rules/.
list(APPEND STEPLINT_RULE_TESTS
  engine/config_file_test.cpp
  engine/config_errors_test.cpp
  engine/compare_config_test.cpp
  engine/selection_test.cpp
  engine/baseline_test.cpp
  engine/suggest_test.cpp
  engine/rule_catalog_test.cpp
  engine/docs_examples_test.cpp
  engine/shared_data_test.cpp
  engine/device_scope_test.cpp
  engine/legacy_export_reasons_test.cpp
  engine/rule_definition_test.cpp
  engine/rule_options_doc_test.cpp
)
