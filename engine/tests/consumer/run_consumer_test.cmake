# ctest driver for pool_consumer_find_package (see engine/tests/CMakeLists.txt):
# install engine::pool alone, then build and run engine/tests/consumer against it.
# Inputs: POOLSHOT_BUILD_DIR, CONSUMER_SOURCE_DIR, WORK_DIR, GENERATOR, CXX_COMPILER.
cmake_minimum_required(VERSION 3.22)

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer test: ${what} failed (${rc}):\n${out}")
  endif()
  message(STATUS "consumer test: ${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

run_step("install component engine_pool"
  ${CMAKE_COMMAND} --install ${POOLSHOT_BUILD_DIR} --component engine_pool --prefix ${prefix})
if(NOT EXISTS ${prefix}/include/engine/pool/vector_pool.hpp)
  message(FATAL_ERROR "consumer test: the install did not put vector_pool.hpp under ${prefix}/include")
endif()

# The consumer is built as a normal Release project: no sanitizer or warning flags leak in
# from this tree, and CMAKE_PREFIX_PATH is the only way it can find the pool.
run_step("configure consumer"
  ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${build} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -DCMAKE_PREFIX_PATH=${prefix} -DEXPECTED_PREFIX=${prefix})
run_step("build consumer" ${CMAKE_COMMAND} --build ${build})
run_step("run consumer" ${build}/pool_consumer)
if(NOT step_output MATCHES "engine-pool consumer: ok")
  message(FATAL_ERROR "consumer test: unexpected output:\n${step_output}")
endif()
