#pragma once
// engine::PoolHandle: a small value that names one object in one pool, safely.
// Part of the header-only pool library (CMake target engine::pool).
#include <cstdint>

namespace engine {

// A handle is an index plus the generation the slot had when the object was created.
// The pool bumps a slot's generation whenever its object is released, so a handle kept
// past release no longer matches and is refused instead of reaching the next occupant.
// Generation 0 is never issued: PoolHandle{} is the null handle.
struct PoolHandle {
  std::uint32_t index = 0;       // slot number inside the pool
  std::uint32_t generation = 0;  // 0 only for the null handle

  constexpr bool is_null() const noexcept { return generation == 0; }
  constexpr explicit operator bool() const noexcept { return generation != 0; }
};

constexpr bool operator==(PoolHandle a, PoolHandle b) noexcept {
  return a.index == b.index && a.generation == b.generation;
}
constexpr bool operator!=(PoolHandle a, PoolHandle b) noexcept { return !(a == b); }

}  // namespace engine
