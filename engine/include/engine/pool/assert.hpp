#pragma once
// engine::pool debug checks: one assert macro with a message, and one for costly checks.
//
//   ENGINE_POOL_DEBUG     1: ENGINE_POOL_ASSERT is live (default unless NDEBUG); 0: compiled out.
//   ENGINE_POOL_VALIDATE  1: the pool re-checks all its invariants after every mutation
//                         (O(capacity) each time, so off by default, for hunting bugs); a call
//                         made from inside T's constructor or destructor is checked when the
//                         outermost call completes (mid-operation the pool is not consistent).
//
// Public calls assert in debug and still fail safely in release: every check below has a
// refusal path (false / nullptr / nullopt plus a PoolStats counter) behind it.
// Define both macros the same way in every translation unit of one program, or the ODR
// gives you whichever VectorPool<T> the linker sees first.
#include <cstdio>
#include <cstdlib>

#ifndef ENGINE_POOL_DEBUG
#ifdef NDEBUG
#define ENGINE_POOL_DEBUG 0
#else
#define ENGINE_POOL_DEBUG 1
#endif
#endif

#ifndef ENGINE_POOL_VALIDATE
#define ENGINE_POOL_VALIDATE 0
#endif

namespace engine::detail {

// Out of line from the check so the happy path stays one compare and one branch.
[[noreturn]] inline void pool_check_failed(const char* file, int line, const char* condition,
                                           const char* message) noexcept {
  std::fprintf(stderr, "%s:%d: engine pool check failed: %s [%s]\n", file, line, message, condition);
  std::fflush(stderr);
  std::abort();
}

}  // namespace engine::detail

// The release forms still name `cond` and `msg` inside sizeof so variables used only in checks do
// not trigger -Wunused warnings, but never evaluate it.
#if ENGINE_POOL_DEBUG
#define ENGINE_POOL_ASSERT(cond, msg) \
  ((cond) ? static_cast<void>(0) : ::engine::detail::pool_check_failed(__FILE__, __LINE__, #cond, msg))
#else
#define ENGINE_POOL_ASSERT(cond, msg) static_cast<void>(sizeof((cond) ? 1 : 0) + sizeof(msg))
#endif

#if ENGINE_POOL_VALIDATE
#define ENGINE_POOL_VALIDATE_ASSERT(cond, msg) \
  ((cond) ? static_cast<void>(0) : ::engine::detail::pool_check_failed(__FILE__, __LINE__, #cond, msg))
#else
#define ENGINE_POOL_VALIDATE_ASSERT(cond, msg) static_cast<void>(sizeof((cond) ? 1 : 0) + sizeof(msg))
#endif
