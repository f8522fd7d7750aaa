#pragma once
// ENGINE_POOL_ASSERT for the concurrent pool, the multi pool and the block resource.
// The pool library's shared <engine/pool/assert.hpp> is the one definition when it exists;
// this header only stands in for it (same name, same switch, same contract) so these
// headers never depend on the order in which the library's pieces are committed.
#if __has_include(<engine/pool/assert.hpp>)
#include <engine/pool/assert.hpp>
#else

#include <cstdio>
#include <cstdlib>

// On unless NDEBUG, as pool_api.md specifies; define ENGINE_POOL_DEBUG to 0 or 1 to override.
#ifndef ENGINE_POOL_DEBUG
#ifdef NDEBUG
#define ENGINE_POOL_DEBUG 0
#else
#define ENGINE_POOL_DEBUG 1
#endif
#endif

#ifndef ENGINE_POOL_ASSERT
#if ENGINE_POOL_DEBUG
// Prints where and why, then aborts: misuse of a pool is a bug in the caller, and a
// core dump at the misuse beats corruption found three frames later.
#define ENGINE_POOL_ASSERT(cond, msg)                                                   \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "%s:%d: engine pool assertion failed: %s (%s)\n", __FILE__, \
                   __LINE__, msg, #cond);                                               \
      std::abort();                                                                     \
    }                                                                                   \
  } while (false)
#else
// sizeof keeps names used only in checks "used" without evaluating anything.
#define ENGINE_POOL_ASSERT(cond, msg) static_cast<void>(sizeof(cond))
#endif
#endif

#endif
