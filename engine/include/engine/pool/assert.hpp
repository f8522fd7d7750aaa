// SPDX-License-Identifier: MIT
#pragma once
// engine::pool's checks: one assert macro with a message, one for costly checks, and the
// exception switch.
//
//   ENGINE_POOL_DEBUG     1: misuse stops with a message (default unless NDEBUG); 0: compiled out.
//                         Either way every public call also has a safe refusal (false, nullptr,
//                         nullopt, plus a PoolStats counter).
//   ENGINE_POOL_VALIDATE  1: the pool re-checks all its invariants after every mutation
//                         (O(capacity) each time; for hunting bugs).
// Define both the same way in every translation unit of a program (the ODR picks one otherwise).
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

// Out of line from the check, so the happy path stays one compare and one branch.
[[noreturn]] inline void pool_check_failed(const char* file, int line, const char* condition,
                                           const char* message) noexcept {
  std::fprintf(stderr, "%s:%d: engine pool check failed: %s [%s]\n", file, line, message, condition);
  std::fflush(stderr);
  std::abort();
}

}  // namespace engine::detail

#define ENGINE_POOL_CHECK_(cond, msg) \
  ((cond) ? static_cast<void>(0) : ::engine::detail::pool_check_failed(__FILE__, __LINE__, #cond, msg))
// The off forms name `cond` and `msg` in an unevaluated sizeof, so check-only variables stay used.
#define ENGINE_POOL_OFF_(cond, msg) static_cast<void>(sizeof((cond) ? 1 : 0) + sizeof(msg))

#if ENGINE_POOL_DEBUG
#define ENGINE_POOL_ASSERT(cond, msg) ENGINE_POOL_CHECK_(cond, msg)
#else
#define ENGINE_POOL_ASSERT(cond, msg) ENGINE_POOL_OFF_(cond, msg)
#endif

#if ENGINE_POOL_VALIDATE
#define ENGINE_POOL_VALIDATE_ASSERT(cond, msg) ENGINE_POOL_CHECK_(cond, msg)
#else
#define ENGINE_POOL_VALIDATE_ASSERT(cond, msg) ENGINE_POOL_OFF_(cond, msg)
#endif

// Built with -fno-exceptions the pool has no try/catch: T's constructors cannot throw, and an
// allocation the standard library makes (a metadata vector) ends the program, as the standard
// containers do there. The pool's own object memory is allocated with nothrow new, so running
// out of it is a refusal (nullopt, false) in both builds.
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define ENGINE_POOL_EXCEPTIONS 1
#define ENGINE_POOL_TRY try
#define ENGINE_POOL_CATCH(what) catch (what)
#define ENGINE_POOL_RETHROW throw
#else
#define ENGINE_POOL_EXCEPTIONS 0
#define ENGINE_POOL_TRY if (true)
#define ENGINE_POOL_CATCH(what) else if (false)
#define ENGINE_POOL_RETHROW static_cast<void>(0)
#endif
