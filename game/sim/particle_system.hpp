#pragma once
// game::ParticleSystem: sparks, smoke, the engine trail and explosion flashes, in an
// ObjectStore. Every particle's randomness is keyed by its own sequence number, so a burst
// looks the same whatever storage the particles end up in.
#include "sim/entities.hpp"
#include "sim/object_store.hpp"

#include <cstdint>

namespace game {

// One burst: `count` particles from `origin`, directions within `cone` around `direction`.
struct BurstSpec {
  ParticleKind kind = ParticleKind::spark;
  int count = 1;
  float direction = 0;      // radians
  float cone = 6.2831853f;  // radians; 2*pi = all round
  float speed_min = 50, speed_max = 200;
  float life_min = 0.3f, life_max = 0.6f;
  float size_min = 3, size_max = 6;
  float damping_per_second = 0.2f;  // velocity left after one second
  std::uint32_t color = 0xffffffffu;
  Vec2 carry;  // velocity added to every particle (the emitter's own motion)
};

class ParticleSystem {
 public:
  ParticleSystem(const engine::GrowthPolicy& policy, bool pooled, std::uint64_t seed, float dt,
                 WalkMode walk = WalkMode::slot_order);

  // Spawns spec.count particles (fewer at capacity); returns how many were spawned.
  int burst(const BurstSpec& spec, Vec2 origin);
  // Moves every particle one step and releases those whose life ran out, in two phases (walk
  // and mark, on `team`'s threads: a particle touches only itself; then release and mend the
  // active list, on this one: see particle_system.cpp).
  void update(engine::WorkerTeam& team, float dt);

  ObjectStore<Particle>& store() noexcept { return store_; }
  const ObjectStore<Particle>& store() const noexcept { return store_; }
  std::uint64_t next_seq() const noexcept { return next_seq_; }

 private:
  ObjectStore<Particle> store_;
  std::uint64_t seed_;
  float dt_;
  std::uint64_t next_seq_ = 1;
};

}  // namespace game
