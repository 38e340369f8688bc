# Run by CTest (tests/install/CMakeLists.txt): install, build the consumer against the install,
# run it and `steplint record`, and check what they wrote. Fails with a message on any step.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed include/steplint/collector.h bin/steplint)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "${installed} is not installed")
  endif()
endforeach()

run("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
run("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
set(trace ${WORK_DIR}/consumer.pt.trace.json)
run("running the consumer" ${WORK_DIR}/consumer/steplint_consumer ${trace})
file(READ ${trace} text)
foreach(expected "\"ProfilerStep#2\"" "\"enumerate(DataLoader)#CppDataLoaderIter.__next__\"" "\"consumer_run\": \"install test\"")
  string(FIND "${text}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the consumer's trace lacks ${expected}")
  endif()
endforeach()

# The installed `steplint record` must find the installed preload library: with a program
# that does not load libtorch it reports that no trace was written, not a missing library.
execute_process(COMMAND ${prefix}/bin/steplint record --no-report -o ${WORK_DIR}/none.pt.trace.json.gz -- /bin/true
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}${err}" "no trace was written" at)
if(NOT rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "installed steplint record (${rc}):\n${out}${err}")
endif()
# ... and the Python import hook beside it (it prepends the hook's directory to PYTHONPATH).
file(GLOB hook ${prefix}/lib*/steplint_python/sitecustomize.py)
if(NOT hook)
  message(FATAL_ERROR "the install lacks steplint_python/sitecustomize.py next to the preload library")
endif()
message(STATUS "install test passed: ${prefix}")
