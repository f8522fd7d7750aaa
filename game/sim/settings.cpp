#include "sim/settings.hpp"

namespace game {

Settings settings_from(const Scenario& scenario) {
  Settings s;
  s.pooling = scenario.pooling;
  s.storage = scenario.storage;
  s.walk = scenario.walk;
  s.pools = scenario.pools;
  s.stress = scenario.stress;
  s.particles_per_explosion = scenario.particles.per_explosion;
  s.sparks_per_hit = scenario.particles.per_hit;
  s.trail_per_second = scenario.particles.trail_per_second;
  s.enemy_density = scenario.enemy_density;
  return s;
}

std::uint8_t switches_between(const Settings& before, const Settings& after) noexcept {
  std::uint8_t bits = 0;
  if (before.pooling != after.pooling) bits |= switch_bit(SwitchKind::pooling);
  if (before.storage != after.storage) bits |= switch_bit(SwitchKind::storage);
  if (before.walk != after.walk) bits |= switch_bit(SwitchKind::walk);
  return bits;
}

const char* switch_label(SwitchKind kind, const Settings& after) noexcept {
  switch (kind) {
    case SwitchKind::pooling:
      return after.pooling ? "pooling on" : "pooling off";
    case SwitchKind::storage:
      return engine::storage_mode_name(after.storage);
    case SwitchKind::walk:
      return walk_display_name(after.walk);
  }
  return "?";
}

}  // namespace game
