# Warnings apply to steplint's own targets only; third-party headers come in as SYSTEM.
function(steplint_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local)
  if(STEPLINT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
