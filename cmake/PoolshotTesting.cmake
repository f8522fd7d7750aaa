include(GoogleTest)

# Under ASan, a test's own code is compiled without optimisation: the libraries it drives keep
# the preset's -O1, and a test file costs about half the compile time at -O0, where most of the
# sanitizer build's time goes. (TSan keeps -O1: its few test files loop over pools on several
# threads, and at -O0 under TSan they run many times slower.) The test programs link as fixed
# executables (-no-pie): ctest starts one per test, over a thousand times, and a position-independent
# one spends a third of its start (50 of 180 ms) applying 800,000 relocations for ASan's metadata.
function(poolshot_test_optimisation target)
  if("address" IN_LIST POOLSHOT_SANITIZE)
    target_compile_options(${target} PRIVATE -O0)
    target_link_options(${target} PRIVATE -no-pie)
  endif()
endfunction()

# poolshot_add_gtest(<name> SOURCES ... LIBS ... [LABELS ...] [TIMEOUT seconds])
# One GoogleTest executable; each TEST() becomes its own ctest entry so the summary counts
# real tests. Discovery runs at test time (PRE_TEST) so a sanitizer build does not pay for
# it during the build.
function(poolshot_add_gtest name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
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
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES LABELS "${ARG_LABELS}" ENVIRONMENT "POOLSHOT_SOURCE_DIR=${PROJECT_SOURCE_DIR}" ${_timeout})
endfunction()
