include(GoogleTest)

# Under ASan, a test's own code is compiled without optimisation: the libraries it drives keep
# the preset's -O1, and a test file costs about half the compile time at -O0, where most of the
# sanitizer build's time goes. (TSan keeps -O1: its few test files loop over pools on several
# threads, and at -O0 under TSan they run many times slower.) The test programs link as fixed
# executables (-no-pie): ctest starts them hundreds of times, and a position-independent one
# spends a third of its start (50 of 180 ms) applying 800,000 relocations for ASan's metadata.
# Their death tests' children do not symbolise the report they exist to produce
# (engine/tests/asan_death_test_options.cpp).
function(poolshot_test_optimisation target)
  if("address" IN_LIST POOLSHOT_SANITIZE)
    target_compile_options(${target} PRIVATE -O0)
    target_link_options(${target} PRIVATE -no-pie)
    set(_options ${PROJECT_SOURCE_DIR}/engine/tests/asan_death_test_options.cpp)
    target_sources(${target} PRIVATE ${_options})
    set_source_files_properties(${_options} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()

# poolshot_add_gtest(<name> SOURCES ... LIBS ... [LABELS ...] [TIMEOUT seconds] [BY_SUITE])
# One GoogleTest executable; each TEST() becomes its own ctest entry so the summary counts
# real tests. BY_SUITE makes each test suite one entry instead, <name>:<Suite>, for programs of
# hundreds of short tests: a start costs about 0.1 s of CPU under ASan (0.3 s where SDL and
# llvmpipe load), more than most of their tests. Discovery runs at test time (PRE_TEST) so a
# sanitizer build does not pay for it during the build.
function(poolshot_add_gtest name)
  cmake_parse_arguments(ARG "BY_SUITE" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  set(_timeout)
  if(ARG_TIMEOUT)
    set(_timeout TIMEOUT ${ARG_TIMEOUT})  # each test's own limit: a hang fails instead of holding the run
  endif()
  add_executable(${name} ${ARG_SOURCES})
  list(LENGTH ARG_SOURCES _count)
  if(_count GREATER_EQUAL 3)  # GoogleTest's header costs 1 s per file; its PCH pays from 3 files on
    target_precompile_headers(${name} PRIVATE <gtest/gtest.h>)
  endif()
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  poolshot_warnings(${name})
  poolshot_test_optimisation(${name})
  if(ARG_BY_SUITE)
    set(_include "${CMAKE_CURRENT_BINARY_DIR}/${name}_suites.cmake")
    file(GENERATE OUTPUT "${_include}" CONTENT "set(_suite_exe [==[$<TARGET_FILE:${name}>]==])
set(_suite_program ${name})
set(_suite_dir [==[${PROJECT_SOURCE_DIR}]==])
set(_suite_labels [==[${ARG_LABELS}]==])
set(_suite_timeout [==[${ARG_TIMEOUT}]==])
include([==[${PROJECT_SOURCE_DIR}/cmake/ctest_gtest_suites.cmake]==])
")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${_include}")
    return()
  endif()
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${ARG_LABELS}" ENVIRONMENT "POOLSHOT_SOURCE_DIR=${PROJECT_SOURCE_DIR}" ${_timeout})
endfunction()

# poolshot_add_x11_test(<name> <program> <gtest filter> <labels>)
# The tests that need a real X server (full screen) skip without DISPLAY, so their own entries
# pass anywhere; this entry runs them again on a fresh Xvfb (scripts/tools/with_xvfb) and fails
# if one skipped. Without Xvfb installed (scripts/setup installs it) the entry is not added.
find_program(POOLSHOT_XVFB Xvfb)
function(poolshot_add_x11_test name program filter labels)
  if(NOT POOLSHOT_XVFB)
    message(STATUS "Xvfb not found: ${name} not added (scripts/setup installs xvfb)")
    return()
  endif()
  add_test(NAME ${name} COMMAND ${PROJECT_SOURCE_DIR}/scripts/tools/with_xvfb $<TARGET_FILE:${program}>
                                --gtest_filter=${filter} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" FAIL_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
                                          ENVIRONMENT "POOLSHOT_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endfunction()
