#include "sim/particle_system.hpp"

#include "sim/rng.hpp"

#include <algorithm>
#include <cmath>

namespace game {

ParticleSystem::ParticleSystem(const engine::GrowthPolicy& policy, bool pooled, std::uint64_t seed, float dt,
                               WalkMode walk)
    : store_(policy, pooled, walk), seed_(seed), dt_(dt) {
  queued_.reserve(kQueuedBursts);
}

void ParticleSystem::burst(const BurstSpec& spec, Vec2 origin) {
  if (spec.count <= 0) return;
  if (queued_.size() == queued_.capacity() && !walking_) spawn_queued(this_thread_);  // reserved: never grows
  queued_.push_back({spec, origin, std::pow(spec.damping_per_second, dt_), next_seq_, queued_particles_});
  const auto count = static_cast<std::uint64_t>(spec.count);
  next_seq_ += count;
  queued_particles_ += count;
}

Particle ParticleSystem::make_particle(const QueuedBurst& burst, std::uint64_t seq) const noexcept {
  const BurstSpec& spec = burst.spec;
  Particle p;
  p.kind = spec.kind;
  p.seq = seq;
  p.pos = burst.origin;
  const float angle = spec.direction + (random_unit(seed_, seq, Purpose::particle_angle) - 0.5f) * spec.cone;
  const float speed = random_range(seed_, seq, Purpose::particle_speed, spec.speed_min, spec.speed_max);
  p.vel = from_angle(angle, speed) + spec.carry;
  p.life = p.max_life = random_range(seed_, seq, Purpose::particle_life, spec.life_min, spec.life_max);
  p.size = random_range(seed_, seq, Purpose::particle_size, spec.size_min, spec.size_max);
  p.damping = burst.damping;
  // Brightness varies a little per particle so a burst is not one flat colour.
  const float shade = random_range(seed_, seq, Purpose::particle_tint, 0.7f, 1.0f);
  const auto channel = [&](int shift) {
    const auto c = static_cast<float>((spec.color >> shift) & 0xffu);
    return static_cast<std::uint32_t>(c * shade) << shift;
  };
  p.color = channel(0) | channel(8) | channel(16) | (spec.color & 0xff000000u);
  return p;
}

// The queued bursts' particles, in sequence order, built on the team: particle i is found in its
// burst by a binary search over the bursts' `before` counts (no task shares any state). After
// the step's walk (update), each is built moved by its first step, as the walk would have moved
// it; a burst whose shortest life is within that step may leave particles dead on their first
// step, and those go at once (a pass that moves nothing), so none outlives its step. Before the
// walk (a full queue built early) they are built as they are, and the walk moves them.
void ParticleSystem::spawn_queued(engine::WorkerTeam& team) {
  if (queued_.empty()) return;
  const bool first_step = walked_;
  const float dt = walked_dt_;
  bool may_die = false;  // after the walk only: before it, the walk releases them
  if (first_step) {
    for (const QueuedBurst& b : queued_) may_die |= !(std::min(b.spec.life_min, b.spec.life_max) > dt);
  }
  const auto make = [this, first_step, dt](std::size_t i) noexcept {
    const auto after = std::upper_bound(queued_.begin(), queued_.end(), i,
                                        [](std::size_t at, const QueuedBurst& b) { return at < b.before; });
    const QueuedBurst& burst = *(after - 1);
    Particle p = make_particle(burst, burst.first_seq + (i - burst.before));
    if (first_step) move_and_keep(p, dt);
    return p;
  };
  store_.spawn_chunked(queued_particles_, team, make);
  queued_.clear();
  queued_particles_ = 0;
  if (may_die) store_.sweep(team, [](std::size_t, const Particle& p) { return p.life > 0.0f; });
}

}  // namespace game
