#pragma once
// engine::detail generation words of ConcurrentPool slots. Internal to the pool library.
//
// One 32-bit atomic per slot says both whether the slot is live and which handle owns it:
//   bit 0      live (1) or free (0)
//   bits 1-7   the pool's tag, so a handle from another ConcurrentPool is recognised as foreign
//              (unless the two pools drew the same tag: 1 in 128)
//   bits 8-31  reuse counter, bumped by every release: a stale handle matches again only
//              after 2^24 reuses of that very slot
// A handle's generation is the live word, so it is odd and never 0 (0 is the null handle).
// release() is one compare-and-swap from the handle's word to the next free word: of two
// threads releasing the same handle exactly one succeeds.
#include <engine/pool/detail/generation.hpp>  // is_live_generation: odd is live, as in VectorPool

#include <atomic>
#include <cstdint>

namespace engine::detail {

inline constexpr std::uint32_t kLiveBit = 1u;
inline constexpr std::uint32_t kTagMask = 0x7Fu;
inline constexpr std::uint32_t kCounterStep = 1u << 8;

constexpr std::uint32_t first_free_generation(std::uint32_t tag) noexcept {
  return (tag & kTagMask) << 1;
}
constexpr std::uint32_t live_generation(std::uint32_t free_g) noexcept { return free_g | kLiveBit; }
constexpr std::uint32_t free_generation_after(std::uint32_t live_g) noexcept {
  return (live_g & ~kLiveBit) + kCounterStep;  // wraps modulo 2^32, keeping the tag bits
}
constexpr std::uint32_t generation_tag(std::uint32_t g) noexcept { return (g >> 1) & kTagMask; }

inline std::uint32_t next_pool_tag() noexcept {
  static std::atomic<std::uint32_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) & kTagMask;
}

}  // namespace engine::detail
