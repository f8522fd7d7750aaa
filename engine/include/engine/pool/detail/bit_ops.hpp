#pragma once
// engine::detail: the few bit tricks the occupancy bitmaps need (C++17 has no <bit>), and
// the compiler hints the hot paths use.
#include <cstddef>
#include <cstdint>

// The emplace/release fast paths are a handful of instructions each; GCC at -O2 would
// otherwise keep them as out-of-line calls shared by every caller. Growth stays out of line.
#if defined(__GNUC__) || defined(__clang__)
#  define ENGINE_POOL_HOT inline __attribute__((always_inline))
#  define ENGINE_POOL_ENTRY inline __attribute__((always_inline))  // the public emplace/release
#  define ENGINE_POOL_COLD __attribute__((noinline, cold))
#  define ENGINE_POOL_PREFETCH_WRITE(address) __builtin_prefetch((address), 1, 3)
#  define ENGINE_POOL_PREFETCH_READ(address) __builtin_prefetch((address), 0, 3)
#  define ENGINE_POOL_PREFETCH_READ_L2(address) __builtin_prefetch((address), 0, 2)  // needed soon, not next
#else
#  define ENGINE_POOL_HOT inline
#  define ENGINE_POOL_ENTRY inline
#  define ENGINE_POOL_COLD
#  define ENGINE_POOL_PREFETCH_WRITE(address) static_cast<void>(address)
#  define ENGINE_POOL_PREFETCH_READ(address) static_cast<void>(address)
#  define ENGINE_POOL_PREFETCH_READ_L2(address) static_cast<void>(address)
#endif

namespace engine::detail {

inline constexpr std::size_t bits_per_word = 64;  // slots covered by one occupancy word

// Index of the lowest set bit; `word` must not be 0.
inline unsigned lowest_bit(std::uint64_t word) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned>(__builtin_ctzll(word));
#else
  unsigned n = 0;
  while ((word & 1u) == 0) {
    word >>= 1;
    ++n;
  }
  return n;
#endif
}

// Index of the highest set bit; `word` must not be 0.
inline unsigned highest_bit(std::uint64_t word) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return 63u - static_cast<unsigned>(__builtin_clzll(word));
#else
  unsigned n = 0;
  while (word >>= 1) ++n;
  return n;
#endif
}

inline constexpr std::size_t words_for(std::size_t slots) noexcept {
  return (slots + bits_per_word - 1) / bits_per_word;
}

inline constexpr std::size_t round_up_to_word(std::size_t slots) noexcept {
  return words_for(slots) * bits_per_word;
}

inline constexpr std::size_t round_up_pow2(std::size_t n) noexcept {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

inline constexpr unsigned log2_exact(std::size_t pow2) noexcept {
  unsigned n = 0;
  while ((std::size_t{1} << n) < pow2) ++n;
  return n;
}

}  // namespace engine::detail
