#pragma once
// game::ParticleSystem: sparks, smoke, the engine trail and explosion flashes, in an
// ObjectStore. Every particle's randomness is keyed by its own sequence number, so a burst
// looks the same whatever storage the particles end up in.
#include "sim/entities.hpp"
#include "sim/object_store.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

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

  // Queues spec.count particles, numbered now (their sequence numbers, and so their looks, are
  // fixed here); update() spawns them (fewer at capacity). Nothing reads the particles between
  // a step's bursts and its update, so the game is the same as spawning each one here.
  void burst(const BurstSpec& spec, Vec2 origin);
  // Spawns the queued bursts, built on `team`'s threads (ObjectStore::spawn_chunked: the same
  // slots as one at a time, in sequence order); then moves every particle one step and releases
  // those whose life ran out, in two phases (walk and mark, on the threads: a particle touches
  // only itself; then release and mend the active list: see particle_system.cpp).
  void update(engine::WorkerTeam& team, float dt);

  ObjectStore<Particle>& store() noexcept { return store_; }
  const ObjectStore<Particle>& store() const noexcept { return store_; }
  std::uint64_t next_seq() const noexcept { return next_seq_; }

 private:
  // A burst waiting for update(): its spec, where, its first particle's sequence number, and how
  // many particles the bursts queued before it hold (particle i of the batch is in the last
  // burst whose `before` is <= i).
  struct QueuedBurst {
    BurstSpec spec;
    Vec2 origin;
    float damping;  // per step (the spec's is per second): one pow per burst
    std::uint64_t first_seq;
    std::size_t before;
  };
  // At most this many wait (reserved once): a step with more builds the first ones at once, on
  // this thread, so the queue never allocates.
  static constexpr std::size_t kQueuedBursts = 4096;

  void spawn_queued(engine::WorkerTeam& team);
  Particle make_particle(const QueuedBurst& burst, std::uint64_t seq) const noexcept;

  ObjectStore<Particle> store_;
  std::uint64_t seed_;
  float dt_;
  std::uint64_t next_seq_ = 1;
  std::vector<QueuedBurst> queued_;
  std::size_t queued_particles_ = 0;
  engine::WorkerTeam this_thread_;  // a team of one: builds a full queue inline
};

}  // namespace game
