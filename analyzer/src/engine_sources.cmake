# Rule-engine pieces of steplint_analyzer: lint configuration (toml++), the baseline, spelling
# suggestions and the report emitters (one file per --format). Included by ../CMakeLists.txt.
target_sources(steplint_analyzer PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lint_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lint_config_toml.cpp
  ${CMAKE_CURRENT_LIST_DIR}/suggest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/baseline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/registry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/emit_util.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/text_emitter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/json_emitter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/sarif_emitter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/junit_emitter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/github_emitter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emitters/markdown_emitter.cpp
)
# toml++ is only parsed inside lint_config_toml.cpp; nothing in the public headers exposes it.
target_link_libraries(steplint_analyzer PRIVATE tomlplusplus::tomlplusplus)
