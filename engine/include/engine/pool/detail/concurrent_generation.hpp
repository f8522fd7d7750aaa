// SPDX-License-Identifier: MIT
#pragma once
// engine::detail generation words of ConcurrentPool slots. Internal to the pool library.
//
// One 32-bit atomic per slot says both whether the slot is live and which handle owns it, the
// same scheme as VectorPool's (detail/generation.hpp): odd while live, even while free, +1 on
// every emplace and every release, starting from a per-pool seed (a 32-bit hash of a
// process-wide counter). So:
// - a stale handle matches again only after 2^31 reuses of that very slot (the word wraps);
// - a handle from another pool matches only if that pool's slot sits at exactly the same
//   word, which needs the two seeds within a few reuses of each other: about
//   (reuses of the slot in both pools) / 2^31 for a pair of pools, whichever two they are.
// A handle's generation is the live word, so it is odd and never 0 (0 is the null handle).
// release() is one compare-and-swap from the handle's word to the next free word: of two
// threads releasing the same handle exactly one succeeds.
#include <engine/pool/detail/slot_table.hpp>  // is_live_generation, next_generation_seed

#include <cstdint>

namespace engine::detail {

struct PoolTestAccess;  // declared, never defined by the library: a test reaches a pool's generations

constexpr std::uint32_t live_generation(std::uint32_t free_g) noexcept { return free_g + 1u; }
constexpr std::uint32_t free_generation_after(std::uint32_t live_g) noexcept {
  return live_g + 1u;  // wraps modulo 2^32: 2^31 reuses bring a slot back to a word
}

}  // namespace engine::detail
