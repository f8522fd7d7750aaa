#include "sim/particle_system.hpp"

#include "sim/rng.hpp"

#include <cmath>

namespace game {

ParticleSystem::ParticleSystem(const engine::GrowthPolicy& policy, bool pooled, std::uint64_t seed, float dt,
                               WalkMode walk)
    : store_(policy, pooled, walk), seed_(seed), dt_(dt) {}

int ParticleSystem::burst(const BurstSpec& spec, Vec2 origin) {
  // Damping is per second in the spec and per step on the particle: one pow per burst.
  const float damping = std::pow(spec.damping_per_second, dt_);
  int spawned = 0;
  for (int i = 0; i < spec.count; ++i) {
    const std::uint64_t seq = next_seq_++;
    Particle p;
    p.kind = spec.kind;
    p.seq = seq;
    p.pos = p.prev = origin;
    const float angle = spec.direction + (random_unit(seed_, seq, Purpose::particle_angle) - 0.5f) * spec.cone;
    const float speed = random_range(seed_, seq, Purpose::particle_speed, spec.speed_min, spec.speed_max);
    p.vel = from_angle(angle, speed) + spec.carry;
    p.life = p.max_life = random_range(seed_, seq, Purpose::particle_life, spec.life_min, spec.life_max);
    p.size = random_range(seed_, seq, Purpose::particle_size, spec.size_min, spec.size_max);
    p.damping = damping;
    // Brightness varies a little per particle so a burst is not one flat colour.
    const float shade = random_range(seed_, seq, Purpose::particle_tint, 0.7f, 1.0f);
    const auto channel = [&](int shift) {
      const auto c = static_cast<float>((spec.color >> shift) & 0xffu);
      return static_cast<std::uint32_t>(c * shade) << shift;
    };
    p.color = channel(0) | channel(8) | channel(16) | (spec.color & 0xff000000u);
    if (store_.spawn_handle(p).is_null()) continue;  // no pointer wanted: spare spawn()'s lookup
    ++spawned;
  }
  return spawned;
}

// Phase one: walk the active list (or the pool's bitmap), move each particle and mark the
// burnt-out ones (false). Phase two, inside store_.update() after the walk: release the
// marked and mend the list. Nothing is released during the walk.
namespace {
bool move_and_keep(Particle& p, float dt) noexcept {
  p.prev = p.pos;
  p.pos = p.pos + p.vel * dt;
  p.vel = p.vel * p.damping;
  p.life -= dt;
  return p.life > 0.0f;
}
}  // namespace

void ParticleSystem::update(engine::WorkerTeam& team, float dt) {
  store_.update(team, [dt](std::size_t, Particle& p) { return move_and_keep(p, dt); });
}

}  // namespace game
