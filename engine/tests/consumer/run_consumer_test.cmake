# ctest driver for the pool_consumer tests (see engine/tests/CMakeLists.txt): builds and runs
# engine/tests/consumer as another game would take the pool.
# MODE find_package: install engine::pool alone, then build the consumer against the prefix.
# MODE add_subdirectory: the consumer adds this checkout with no options; its own install must
# hold no pool file. Both build the bullet manager with -fno-exceptions -fno-rtti and run it.
# Inputs: MODE, POOLSHOT_BUILD_DIR, POOLSHOT_SOURCE_DIR, CONSUMER_SOURCE_DIR, BULLETS_SOURCE,
# WORK_DIR, GENERATOR, CXX_COMPILER.
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

# The consumer is built as a normal Release project: no sanitizer or warning flags leak in
# from this tree.
set(configure ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${build} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DBULLETS_SOURCE=${BULLETS_SOURCE})
if(MODE STREQUAL "find_package")
  run_step("install component engine_pool"
    ${CMAKE_COMMAND} --install ${POOLSHOT_BUILD_DIR} --component engine_pool --prefix ${prefix})
  if(NOT EXISTS ${prefix}/include/engine/pool/pool.hpp)
    message(FATAL_ERROR "consumer test: the install did not put pool.hpp under ${prefix}/include")
  endif()
  run_step("configure consumer (find_package)" ${configure} -DCMAKE_PREFIX_PATH=${prefix} -DEXPECTED_PREFIX=${prefix})
else()
  run_step("configure consumer (add_subdirectory)" ${configure} -DPOOLSHOT_SOURCE=${POOLSHOT_SOURCE_DIR})
endif()
run_step("build consumer" ${CMAKE_COMMAND} --build ${build})
run_step("run consumer" ${build}/pool_consumer)
if(NOT step_output MATCHES "engine-pool consumer: ok")
  message(FATAL_ERROR "consumer test: unexpected output:\n${step_output}")
endif()
run_step("run the -fno-exceptions -fno-rtti bullet manager" ${build}/pool_bullets_noexcept)
if(NOT step_output MATCHES "live 4760")
  message(FATAL_ERROR "consumer test: the bullet manager printed:\n${step_output}")
endif()
if(MODE STREQUAL "add_subdirectory")
  run_step("install the consumer" ${CMAKE_COMMAND} --install ${build} --prefix ${prefix})
  file(GLOB_RECURSE installed RELATIVE ${prefix} ${prefix}/*)
  if(NOT installed STREQUAL "bin/pool_consumer")
    message(FATAL_ERROR "consumer test: the consumer's install holds more than its own program: ${installed}")
  endif()
endif()
