#pragma once
// Settings: the one struct the overlay (and the command line) changes. The simulation reads
// it at the start of each step and applies what changed, so a setting never changes in the
// middle of a step. Storage settings (pooling, storage mode, walk, growth policy) change speed and
// memory only; the others (stress, density, particle counts, autofire) change the game.
#include "sim/scenario.hpp"

#include <array>

namespace game {

struct Settings {
  bool pooling = true;                                            // false: every object is its own `new`
  engine::StorageMode storage = engine::StorageMode::contiguous;  // for all four pools
  WalkMode walk = WalkMode::slot_order;        // pooled update walk: bitmap, swap-pop or slot-order list
  std::array<PoolConfig, kPoolCount> pools{};  // growth policy and capacities per pool
  float stress = 1;                            // fire-rate multiplier, widens the spread
  bool autofire = false;                       // the seed scripts the input (autopilot)
  int particles_per_explosion = 220;
  int sparks_per_hit = 3;
  float trail_per_second = 90;
  float enemy_density = 1;  // multiplies the count of waves to come
};

// The settings a scenario starts with.
Settings settings_from(const Scenario& scenario);

}  // namespace game
