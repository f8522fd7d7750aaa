#pragma once
// engine::detail: marks free slots so that touching one is caught.
// Debug builds fill a released slot with 0xDD (a kept pointer reads garbage that is easy to
// spot); AddressSanitizer builds also poison free slots, so any access reports
// use-after-poison. Slots are unpoisoned right before construction and before the pool
// relocates or frees memory, so the pool itself never trips the sanitizer.
#include <engine/pool/assert.hpp>

#include <cstddef>
#include <cstring>

// ENGINE_POOL_ASAN: 1 when free slots are poisoned. The asan build defines it; otherwise
// it follows the compiler's own AddressSanitizer flag.
#ifndef ENGINE_POOL_ASAN
#if defined(__SANITIZE_ADDRESS__)
#define ENGINE_POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ENGINE_POOL_ASAN 1
#endif
#endif
#endif
#ifndef ENGINE_POOL_ASAN
#define ENGINE_POOL_ASAN 0
#endif

#if ENGINE_POOL_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace engine::detail {

inline constexpr unsigned char released_byte = 0xDD;  // what a released slot holds in debug
inline constexpr bool asan_poisoning = ENGINE_POOL_ASAN != 0;

// AddressSanitizer keeps one shadow byte per 8 bytes of memory, and a shadow byte can only say
// "the first k bytes are addressable". Two slots that share a granule can therefore not be
// poisoned apart (a released 4-byte slot beside a live one stays readable), and two threads
// poisoning neighbouring slots race on one shadow byte. So under ASan every slot starts on a
// granule and its stride is a whole number of granules: each slot owns its shadow bytes. The
// padding stays poisoned, so an overrun into it is reported too. Other builds pad nothing.
inline constexpr std::size_t poison_granule = asan_poisoning ? 8 : 1;

inline constexpr std::size_t granule_padded(std::size_t bytes) noexcept {
  return (bytes + poison_granule - 1) / poison_granule * poison_granule;
}

inline void poison_bytes(void* bytes, std::size_t size) noexcept {
#if ENGINE_POOL_ASAN
  __asan_poison_memory_region(bytes, size);
#else
  static_cast<void>(bytes);
  static_cast<void>(size);
#endif
}

inline void unpoison_bytes(void* bytes, std::size_t size) noexcept {
#if ENGINE_POOL_ASAN
  __asan_unpoison_memory_region(bytes, size);
#else
  static_cast<void>(bytes);
  static_cast<void>(size);
#endif
}

// Called after an object's destructor ran: the slot is free from here on.
inline void mark_slot_released(void* bytes, std::size_t size) noexcept {
#if ENGINE_POOL_DEBUG
  std::memset(bytes, released_byte, size);
#endif
  poison_bytes(bytes, size);
}

}  // namespace engine::detail
