#pragma once
// game::WalkMode: how a pooled ObjectStore walks its live objects in each step's update.
//   bitmap      the pool's own erase_if over its occupancy bits (no list): the reference
//   swap_pop    an engine::ActiveIndexList mended by swap-and-pop: the classic tutorial
//               design; its order scrambles as the game churns, and a big walk slows down
//   slot_order  an ActiveIndexList kept sorted by slot: walks memory in order, at an O(n)
//               merge per step. The default: the managers keep a list, as the classic design
//               does, in the order that does not decay (active_list_bench: its churn step is
//               about 3x faster than swap-pop's; the bitmap walk is still faster, see README)
// All three give the same game (same state hash): only the walk's speed differs.
// Heap mode (pooling off) ignores it: the heap store is always the classic vector<T*> loop.
#include <engine/pool/active_index_list.hpp>
#include <engine/pool/handle.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace game {

enum class WalkMode : std::uint8_t { bitmap, swap_pop, slot_order };

struct WalkModeName {
  std::string_view name;  // as a scenario, a script, --walk and the report spell it
  WalkMode mode;
};
inline constexpr std::array<WalkModeName, 3> kWalkModeNames{
    {{"bitmap", WalkMode::bitmap}, {"swap_pop", WalkMode::swap_pop}, {"slot_order", WalkMode::slot_order}}};

constexpr std::string_view walk_name(WalkMode mode) noexcept {
  for (const WalkModeName& n : kWalkModeNames) {
    if (n.mode == mode) return n.name;
  }
  return "bitmap";
}
// How the panel, its graph and --frame-csv name a walk to a reader (walk_name() is the files').
constexpr const char* walk_display_name(WalkMode mode) noexcept {
  return mode == WalkMode::swap_pop ? "swap-pop list" : mode == WalkMode::slot_order ? "slot-order list" : "bitmap";
}
constexpr std::optional<WalkMode> parse_walk(std::string_view name) noexcept {
  for (const WalkModeName& n : kWalkModeNames) {
    if (n.name == name) return n.mode;
  }
  return std::nullopt;
}
// Whether a chosen list walk applies to a pool in this layout. A packed pool's dense array is
// already an active list, the seed's swap-pop applied to the objects, and its own pass walks
// it in memory order; an index list over it would visit the dense positions in slot (or churn)
// order, at random (storm.json's p50 read 42 ms that way against 9 ms contiguous). So packed
// stores walk their dense array whatever walk is chosen, and the choice comes back with the
// next layout. ObjectStore walks by this rule, and the overlay names the walk by it.
constexpr bool is_dense_storage(engine::StorageMode storage) noexcept {  // live objects dense over an index
  return storage != engine::StorageMode::contiguous && storage != engine::StorageMode::stable;
}
constexpr bool list_walk_applies(engine::StorageMode storage) noexcept { return !is_dense_storage(storage); }

// The list discipline a list walk uses (bitmap has none; it maps to slot_order, unused).
constexpr engine::ListDiscipline list_discipline(WalkMode mode) noexcept {
  return mode == WalkMode::swap_pop ? engine::ListDiscipline::swap_pop : engine::ListDiscipline::slot_order;
}

}  // namespace game
