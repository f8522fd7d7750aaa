#pragma once
// Homing shots: how one steers, step by step. A homing Bullet keeps its target as the enemy
// store's handle and asks the store for it every step; the store's generation check (the
// pool's, or the heap table's) refuses a handle whose enemy died, even when the slot went to
// a newcomer, and the shot locks on again instead of chasing whoever moved in.
#include "sim/collision_grid.hpp"
#include "sim/entities.hpp"
#include "sim/object_store.hpp"
#include "sim/rect.hpp"
#include "sim/scenario.hpp"

#include <engine/pool/handle.hpp>

#include <cstdint>
#include <vector>

namespace game {

// What a homing shot may look at this step: the enemy store, and this step's seq-sorted
// enemies (EnemyManager::by_seq / handles_by_seq) with the grid built from them.
struct HomingField {
  ObjectStore<Enemy>& enemies;
  const CollisionGrid& grid;
  const std::vector<Enemy*>& by_seq;
  const std::vector<engine::PoolHandle>& handles_by_seq;
  Rect screen;  // only enemies on screen are locked on to
};

// A shot with nothing in range looks again every this many steps (staggered by its seq).
inline constexpr std::uint64_t kHomingSeekEvery = 8;

// Turns `b` (a homing shot) towards its target by at most turn_rate x dt, keeping its speed.
// A refused target handle adds one to stale_refusals; the shot then locks on to the nearest
// on-screen enemy within seek_radius (ties: the lower seq), so the choice never depends on
// storage order. Searches run only after a refusal, in a shot's first step, and every
// kHomingSeekEvery-th step while it has no target. Straight bullets are left alone.
void steer_homing_shot(Bullet& b, const HomingField& field, const HomingConfig& config, std::uint64_t step, float dt,
                       std::uint64_t& stale_refusals);

}  // namespace game
