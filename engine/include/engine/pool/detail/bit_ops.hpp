#pragma once
// engine::detail: the few bit tricks the occupancy bitmaps need (C++17 has no <bit>), and
// the compiler hints the hot paths use.
#include <cstddef>
#include <cstdint>

// ENGINE_POOL_HOT: the tiny pieces of the fast paths (slot lookup, prefetch, commit, the
// destructor call) are always inlined into the function that uses them; GCC at -O2 would
// otherwise keep some of them as out-of-line calls. Growth stays out of line (COLD).
// A helper that only prefetches must be HOT as well, not merely inline: GCC (12, at -O1 and
// up) counts a prefetch as no side effect, finds such a helper "const", and deletes the calls
// to it before it would inline them, so the prefetch is silently gone. The packed layouts'
// release phase ran without its dense-index, position and hole prefetches that way until
// the test engine/tests/prefetch checked the machine code (docs/figures.md: 0.33 -> 0.18 ms).
//
// ENGINE_POOL_ENTRY: the public emplace/release/release_later are plain `inline`, so GCC
// decides per call site. Forcing them into every caller made one function with 300
// emplace/release calls take 34 s to compile at -O2 and 20 minutes under ASan (-O1 -g), for
// no speed the benchmarks can see (bench/ ratios, README). Define ENGINE_POOL_FORCE_INLINE=1
// (in every translation unit, like the debug macros) to force them again.
#ifndef ENGINE_POOL_FORCE_INLINE
#define ENGINE_POOL_FORCE_INLINE 0
#endif
#if defined(__GNUC__) || defined(__clang__)
#define ENGINE_POOL_HOT inline __attribute__((always_inline))
#if ENGINE_POOL_FORCE_INLINE
#define ENGINE_POOL_ENTRY inline __attribute__((always_inline))
#else
#define ENGINE_POOL_ENTRY inline
#endif
#define ENGINE_POOL_COLD __attribute__((noinline, cold))
#define ENGINE_POOL_PREFETCH_WRITE(address) __builtin_prefetch((address), 1, 3)
#define ENGINE_POOL_PREFETCH_READ(address) __builtin_prefetch((address), 0, 3)
#define ENGINE_POOL_PREFETCH_READ_L2(address) __builtin_prefetch((address), 0, 2)  // needed soon, not next
#else
#define ENGINE_POOL_HOT inline
#define ENGINE_POOL_ENTRY inline
#define ENGINE_POOL_COLD
#define ENGINE_POOL_PREFETCH_WRITE(address) static_cast<void>(address)
#define ENGINE_POOL_PREFETCH_READ(address) static_cast<void>(address)
#define ENGINE_POOL_PREFETCH_READ_L2(address) static_cast<void>(address)
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

// Bit `offset` of a bitmap stored 64 bits a word (the occupancy bitmaps): the one place the
// word / bit split is written.
inline bool test_bit(const std::uint64_t* words, std::size_t offset) noexcept {
  return (words[offset / bits_per_word] >> (offset % bits_per_word)) & 1u;
}
inline void set_bit(std::uint64_t* words, std::size_t offset) noexcept {
  words[offset / bits_per_word] |= std::uint64_t{1} << (offset % bits_per_word);
}
inline void clear_bit(std::uint64_t* words, std::size_t offset) noexcept {
  words[offset / bits_per_word] &= ~(std::uint64_t{1} << (offset % bits_per_word));
}

inline constexpr std::size_t words_for(std::size_t slots) noexcept {
  return (slots + bits_per_word - 1) / bits_per_word;
}

inline constexpr std::size_t round_up_to_word(std::size_t slots) noexcept { return words_for(slots) * bits_per_word; }

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
