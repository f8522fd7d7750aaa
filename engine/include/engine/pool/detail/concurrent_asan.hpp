#pragma once
// Poisoning of free pool storage under AddressSanitizer (ENGINE_POOL_ASAN=1, which the
// project's address-sanitizer builds define), so a use after release or deallocate is
// reported at the faulty access. No-ops otherwise. Internal to the pool library.
#include <cstddef>

#if defined(ENGINE_POOL_ASAN) && ENGINE_POOL_ASAN && __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#define ENGINE_POOL_DETAIL_POISONS 1
#else
#define ENGINE_POOL_DETAIL_POISONS 0
#endif

namespace engine::detail {

inline void poison_free_storage(const void* p, std::size_t bytes) noexcept {
#if ENGINE_POOL_DETAIL_POISONS
  __asan_poison_memory_region(p, bytes);
#else
  static_cast<void>(p);
  static_cast<void>(bytes);
#endif
}

inline void unpoison_storage(const void* p, std::size_t bytes) noexcept {
#if ENGINE_POOL_DETAIL_POISONS
  __asan_unpoison_memory_region(p, bytes);
#else
  static_cast<void>(p);
  static_cast<void>(bytes);
#endif
}

}  // namespace engine::detail
