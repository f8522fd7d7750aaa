#pragma once
// The objects that live in the pools. Plain values with a spawn sequence number each: the
// number, not the storage position, orders anything that must be ordered (which enemy a
// bullet hits, which hit kills, the state hash), so storage order never changes the game.
#include "sim/scenario.hpp"
#include "sim/vec2.hpp"

#include <engine/pool/handle.hpp>

#include <cstdint>

namespace game {

struct Bullet {
  Vec2 pos, prev;         // prev: position one step ago, for render interpolation
  Vec2 vel;               // world units per second
  float radius = 3;       // collision radius
  float age = 0;          // seconds since spawn
  std::uint64_t seq = 0;  // spawn sequence number within its manager
  std::uint32_t color = 0xffffffffu;
  std::int32_t damage = 1;
  // Homing shots only: null for a straight bullet; otherwise the target enemy's store
  // handle, or kSeekingTarget while it has none. A handle, not an Enemy*: the enemy may die
  // and its slot go to another, and the store's check is what notices.
  engine::PoolHandle target;

  bool homing() const noexcept { return !target.is_null(); }
};

// A homing shot with no target (nothing was in range); never live in any store.
inline constexpr engine::PoolHandle kSeekingTarget{0xFFFFFFFFu, 1};

enum class ParticleKind : std::uint8_t { spark, smoke, trail, flash };

// 48 bytes, not the 56 a `prev` (as bullets and enemies keep) would make it: the particles' walk
// is the step's largest (up to a million in a storm). Velocity is damped before the move, so
// where a particle was one step ago follows from pos and vel (previous_position).
struct Particle {
  Vec2 pos, vel;
  float life = 1;      // seconds left
  float max_life = 1;  // seconds at spawn: life / max_life fades it out
  float size = 4;      // world units across
  float damping = 1;   // velocity factor per step
  std::uint64_t seq = 0;
  std::uint32_t color = 0xffffffffu;
  ParticleKind kind = ParticleKind::spark;
};
static_assert(sizeof(Particle) == 48, "Particle: 48 bytes, so four fill three cache lines");

// Where the particle was one step of `dt` ago (its move is pos += vel * dt), for interpolation.
inline Vec2 previous_position(const Particle& p, float dt) noexcept { return p.pos - p.vel * dt; }

struct Enemy {
  Vec2 pos, prev;
  Vec2 station;  // where it hovers; moves up and away once its stay is over
  Vec2 vel;      // chargers only (EnemyMotion::charge): a straight line, world units per second
  float radius = 14;
  float age = 0;
  float phase = 0;         // per-enemy offset of its sway, so a wave does not move in lockstep
  float fire_timer = 1;    // seconds to the next volley
  float volley_angle = 0;  // radial / spiral patterns turn by this each volley
  float hit_flash = 0;     // seconds of white flash after a hit (render only)
  std::int32_t hp = 1, max_hp = 1;
  std::uint64_t seq = 0;
  WaveConfig wave;  // its kind, pattern and firing parameters (difficulty applied)
  std::uint32_t wave_number = 0;
  bool leaving = false;  // stay is over: flying out, no longer scoring on exit
  bool gone = false;     // left the screen: released without an explosion
};

}  // namespace game
