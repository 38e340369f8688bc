# Warnings apply to steplint's own targets only; third-party headers come in as SYSTEM.
function(steplint_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wshadow=local)  # GCC-only spelling
  endif()
  if(STEPLINT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
