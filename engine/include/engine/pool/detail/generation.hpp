#pragma once
// engine::detail: slot generations and the per-pool generation seed.
//
// A slot's generation is odd while it holds an object and even while it is free; emplace and
// release each add one. So a handle is live exactly when its (odd) generation equals the
// slot's, one compare, and 0 (the null handle) can never match because it is even.
//
// Every pool starts its slots at its own seed, a 32-bit hash of a process-wide instance
// counter, so pool B's handle {i, g} matches pool A only if A's slot i happens to be live
// at exactly generation g. Slot generations in both pools are seed + (2 x reuses), so that
// needs the two seeds to land within a few reuses of each other: about
// (reuses of that slot in A and B) / 2^31 for a random pair of pools. Residual risks, by
// design: a foreign handle can pass with that small probability, and one slot reused 2^31
// times wraps its generation so a handle kept that long could match again.
#include <engine/pool/pool_handle.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace engine::detail {

// Declared, never defined by the library: a test defines it to reach a pool's internals (to
// set a slot's generation near the wrap instead of reusing the slot 2^31 times).
struct PoolTestAccess;

inline constexpr bool is_live_generation(std::uint32_t generation) noexcept { return (generation & 1u) != 0; }

// A bijective 32-bit mixer (xor-shift / odd-multiply rounds): distinct inputs give distinct,
// well-spread outputs, so consecutive pools get unrelated seeds.
inline constexpr std::uint32_t mix_bits(std::uint32_t x) noexcept {
  x ^= x >> 16;
  x *= 0x21f0aaadu;
  x ^= x >> 15;
  x *= 0x735a2d97u;
  x ^= x >> 15;
  return x;
}

// Builds a handle as one 64-bit value. Built field by field, GCC 12 spills the two halves
// to the stack and reloads them as one word inside std::optional, a store-forwarding stall
// on every emplace; one 64-bit value stays in a register.
inline PoolHandle make_handle(std::uint32_t index, std::uint32_t generation) noexcept {
  static_assert(sizeof(PoolHandle) == sizeof(std::uint64_t) && std::is_trivially_copyable_v<PoolHandle>);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const std::uint64_t bits = index | (static_cast<std::uint64_t>(generation) << 32);
  PoolHandle handle;
  std::memcpy(static_cast<void*>(&handle), &bits, sizeof handle);
  return handle;
#else
  return PoolHandle{index, generation};
#endif
}

inline std::atomic<std::uint32_t> pool_instances_created{0};

// Even (a free generation): the first object in a slot gets seed + 1.
inline std::uint32_t next_generation_seed() noexcept {
  const std::uint32_t n = pool_instances_created.fetch_add(1, std::memory_order_relaxed);
  return mix_bits(n * 0x9e3779b9u + 0x5bd1e995u) & ~1u;
}

}  // namespace engine::detail
