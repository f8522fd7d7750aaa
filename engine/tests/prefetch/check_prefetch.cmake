# ctest -R pool_prefetch_survives: every poolshot_probe_* function in OBJECT (prefetch_probe.cpp,
# compiled at -O2) must hold a prefetch instruction. Run as
#   cmake -DOBJDUMP=... -DOBJECT=... -P check_prefetch.cmake
foreach(_var OBJDUMP OBJECT)
  if(NOT ${_var})
    message(FATAL_ERROR "check_prefetch.cmake: -D${_var}=... is required")
  endif()
endforeach()
execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${OBJECT}
                OUTPUT_VARIABLE _listing RESULT_VARIABLE _status ERROR_VARIABLE _errors)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -d ${OBJECT} failed (${_status}): ${_errors}")
endif()
# One entry per function: objdump starts each with "<address> <name>:".
string(REGEX REPLACE "\n[0-9a-f]+ <" ";<" _functions "${_listing}")
set(_probes 0)
set(_missing)
foreach(_function IN LISTS _functions)
  if(_function MATCHES "^<(poolshot_probe_[a-z_]+)>:")
    set(_name ${CMAKE_MATCH_1})
    math(EXPR _probes "${_probes} + 1")
    if(NOT _function MATCHES ":\tprefetch")  # an instruction (the probes' names hold "prefetch" too)
      list(APPEND _missing ${_name})
    endif()
  endif()
endforeach()
if(_probes LESS 6)
  message(FATAL_ERROR "found ${_probes} poolshot_probe_* functions in ${OBJECT}, expected 6")
endif()
if(_missing)
  message(FATAL_ERROR "no prefetch instruction left in: ${_missing} (the optimiser dropped the helper's "
                      "prefetch: is it ENGINE_POOL_HOT? see engine/pool/detail/bit_ops.hpp)")
endif()
message(STATUS "${_probes} prefetch helpers keep their prefetch instruction")
