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
  // fixed here); spawn_bursts() spawns them (fewer at capacity). Nothing reads the particles
  // between a step's bursts and their spawn, so the game is the same as spawning each one here.
  void burst(const BurstSpec& spec, Vec2 origin);
  // A step's particles, in two calls. update(team, dt, beside) moves every particle
  // alive at the step's start and releases those whose life ran out, in two phases (walk and
  // mark, on the threads: a particle touches only itself; then release and mend the active
  // list), while beside() runs on the calling thread: the step's serial start, which only queues
  // bursts (ObjectStore::update with beside). spawn_bursts(team) then spawns the step's bursts,
  // built on `team`'s threads (ObjectStore::spawn_chunked: the same slots as one at a time, in
  // sequence order), each particle already moved by its first step, and releases any whose
  // first step ended its life. Every particle moves once a step and dies in the step its life
  // runs out, as in a walk over old and new together; the state hash is the same.
  template <class Beside>
  void update(engine::WorkerTeam& team, float dt, Beside&& beside) {
    walking_ = true;
    struct Done {
      bool& walking;
      ~Done() { walking = false; }
    } done{walking_};
    store_.update(
        team, ObjectStore<Particle>::chunks_beside(team),
        [dt](std::size_t, Particle& p) { return move_and_keep(p, dt); }, beside);
    walked_dt_ = dt;
    walked_ = true;
  }
  // After update(team, dt, beside), in the same step.
  void spawn_bursts(engine::WorkerTeam& team) {
    spawn_queued(team);
    walked_ = false;
  }
  // Both at once, nothing beside: a step of the particles alone.
  void update(engine::WorkerTeam& team, float dt) {
    update(team, dt, [] {});
    spawn_bursts(team);
  }
  // One step of a particle: damped, moved, aged; false once its life ran out.
  static bool move_and_keep(Particle& p, float dt) noexcept {
    p.vel = p.vel * p.damping;  // damped first: the move is then pos += vel * dt (previous_position)
    p.pos = p.pos + p.vel * dt;
    p.life -= dt;
    return p.life > 0.0f;
  }

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
  // this thread, so the queue never allocates; except while update() walks the particles beside
  // the caller, when nothing may spawn: the queue grows then (more than 4,096 bursts in a step's
  // serial start).
  static constexpr std::size_t kQueuedBursts = 4096;

  void spawn_queued(engine::WorkerTeam& team);
  Particle make_particle(const QueuedBurst& burst, std::uint64_t seq) const noexcept;

  ObjectStore<Particle> store_;
  std::uint64_t seed_;
  float dt_;
  std::uint64_t next_seq_ = 1;
  std::vector<QueuedBurst> queued_;
  std::size_t queued_particles_ = 0;
  bool walking_ = false;            // inside update(): the store is being walked, so a full queue grows
  bool walked_ = false;             // this step's walk is done: what spawns now takes its first step at once
  float walked_dt_ = 0;             // ...of this length
  engine::WorkerTeam this_thread_;  // a team of one: builds a full queue inline
};

}  // namespace game
