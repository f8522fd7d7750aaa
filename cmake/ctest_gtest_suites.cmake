# Included by ctest (TEST_INCLUDE_FILES, poolshot_add_gtest BY_SUITE) when it reads the tests:
# adds one entry per GoogleTest suite of one program, named <program>:<Suite>, that runs the
# suite's tests in one process. The including file sets _suite_exe, _suite_program, _suite_dir,
# _suite_labels and _suite_timeout.
if(NOT EXISTS "${_suite_exe}")
  add_test("${_suite_program}_NOT_BUILT" "${_suite_program}_NOT_BUILT")
  return()
endif()
execute_process(COMMAND "${_suite_exe}" --gtest_list_tests
                WORKING_DIRECTORY "${_suite_dir}"
                OUTPUT_VARIABLE _suite_out
                RESULT_VARIABLE _suite_rc
                TIMEOUT 60)
if(NOT _suite_rc EQUAL 0)  # an entry that fails the same way, so the run shows why
  add_test("${_suite_program}_LIST_FAILED" "${_suite_exe}" --gtest_list_tests)
  return()
endif()
# Suite lines are "Suite." or "Suite.  # TypeParam = ..."; test lines are indented. The listing
# may hold ';' or brackets (parameter values), which a CMake list would misread.
string(REPLACE ";" "," _suite_out "${_suite_out}")
string(REPLACE "[" "(" _suite_out "${_suite_out}")
string(REPLACE "]" ")" _suite_out "${_suite_out}")
string(REPLACE "\n" ";" _suite_lines "${_suite_out}")
foreach(_suite_line IN LISTS _suite_lines)
  if(NOT _suite_line MATCHES "^([^ #]+)\\.(  #.*)?$")
    continue()
  endif()
  set(_suite_name "${_suite_program}:${CMAKE_MATCH_1}")
  add_test("${_suite_name}" "${_suite_exe}" "--gtest_filter=${CMAKE_MATCH_1}.*")
  set_tests_properties("${_suite_name}" PROPERTIES WORKING_DIRECTORY "${_suite_dir}" LABELS "${_suite_labels}"
                       ENVIRONMENT "POOLSHOT_SOURCE_DIR=${_suite_dir}")
  if(_suite_timeout)
    set_tests_properties("${_suite_name}" PROPERTIES TIMEOUT "${_suite_timeout}")
  endif()
endforeach()
