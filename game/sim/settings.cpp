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

}  // namespace game
