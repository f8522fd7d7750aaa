#pragma once
// Replaces the global operator new of the test executable that includes this header (include
// it in exactly one of its files) with one that counts every call, so a test can show a path
// never allocates: compare allocation_count() before and after it.
// noinline: once inlined, GCC pairs the malloc/free inside with new/delete and warns.
#include <atomic>
#include <cstdlib>
#include <new>

namespace counting_new {
inline std::atomic<long> g_allocations{0};  // atomic: a test may allocate on more than one thread
inline long allocation_count() noexcept { return g_allocations.load(); }
}  // namespace counting_new

[[gnu::noinline]] void* operator new(std::size_t size) {
  ++counting_new::g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
