# One switch for the whole tree: a sanitizer must see every translation unit that touches
# the pool, or it reports false positives (TSan) or misses bugs (ASan).
if(POOLSHOT_SANITIZE)
  string(REPLACE ";" "," _poolshot_san "${POOLSHOT_SANITIZE}")
  message(STATUS "Poolshot: sanitizers -fsanitize=${_poolshot_san}")
  add_compile_options(-fsanitize=${_poolshot_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_poolshot_san})
  if("address" IN_LIST POOLSHOT_SANITIZE)
    # Lets the pool poison released slots so a use after release is reported. POOLSHOT_ASAN tells
    # the project's own code (the pool header, which must stand alone, detects ASan itself).
    add_compile_definitions(ENGINE_POOL_ASAN=1 POOLSHOT_ASAN=1)
  endif()
endif()
