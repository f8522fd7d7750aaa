#pragma once
// engine::detail::Visit: what a pool's walk hands its callback per live object, chosen at
// compile time so each layout's walk (SlotStore::walk, and walk_dense under PackedStore::walk and HeapStore::walk)
// reads only what the caller asked for: the object alone, its handle too (one generation read more), or where it sits
// (a slot index, or a packed layout's dense position).
#include <cstdint>

namespace engine::detail {

enum class Visit { object, handle_and_object, position_and_object };

// A walk's range end past every position: walks take [first, last) in 64-bit so this fits.
inline constexpr std::uint64_t all_positions = std::uint64_t{1} << 32;

}  // namespace engine::detail
