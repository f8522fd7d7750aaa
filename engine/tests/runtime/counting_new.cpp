// The runtime test executable's global operator new and delete: malloc and free, each new counted
// (counting_new.hpp). noinline: once inlined, GCC pairs the malloc/free inside with new/delete and warns.
#include "counting_new.hpp"

[[gnu::noinline]] void* operator new(std::size_t size) {
  ++counting_new::g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
