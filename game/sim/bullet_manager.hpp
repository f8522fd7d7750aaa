#pragma once
// game::BulletManager: one side's bullets (the player's, or the enemies'), in an ObjectStore.
// A bullet flies straight; it dies when it leaves the playfield's margin, grows too old, or
// the side's hit test says it struck something.
#include "sim/entities.hpp"
#include "sim/object_store.hpp"
#include "sim/rect.hpp"

#include <engine/pool/worker_team.hpp>

#include <cstdint>

namespace game {

class BulletManager {
 public:
  static constexpr float kMaxAgeSeconds = 30;  // a backstop: a bullet that never leaves still dies

  BulletManager(const engine::GrowthPolicy& policy, bool pooled, WalkMode walk = WalkMode::slot_order)
      : store_(policy, pooled, walk) {}

  // Spawns a bullet; it gets the sequence number next_seq() returned. A null handle at
  // capacity. A handle, not a pointer: most shots are never looked at again, and on a paged
  // layout the lookup a pointer needs costs a cache miss or two per bullet.
  engine::PoolHandle fire(Vec2 pos, Vec2 vel, float radius, std::uint32_t color, std::int32_t damage) {
    // The number is consumed even when refused, so later numbers do not depend on capacity.
    return store_.spawn_handle(make_bullet(pos, vel, radius, color, damage, next_seq_++));
  }
  // `count` bullets at once, the i-th as fire() would make it from shot(i) (a Shot: pos, vel,
  // color), built on `team`'s threads (ObjectStore::spawn_chunked): the store and the sequence
  // numbers end as `count` fire() calls in order leave them, at any thread count. A volley's
  // emplaces one at a time each waited on a cold slot of a big pool, on one thread. shot must be
  // noexcept and must not touch this manager. Returns how many were spawned.
  template <class ShotAt>
  std::size_t fire_chunked(std::size_t count, engine::WorkerTeam& team, float radius, std::int32_t damage,
                           ShotAt&& shot) {
    const std::uint64_t first = next_seq_;
    next_seq_ += count;  // consumed even when refused, as fire() does
    return store_.spawn_chunked(count, team, [&](std::size_t i) noexcept {
      const auto& s = shot(i);
      return make_bullet(s.pos, s.vel, radius, s.color, damage, first + i);
    });
  }
  // The sequence number the next fire() assigns; random draws for that bullet key on it.
  std::uint64_t next_seq() const noexcept { return next_seq_; }

  // Moves every bullet one step; hit(k, const Bullet&) -> true consumes the bullet, after
  // steer(k, Bullet&) turned it (homing shots). The hit test must not depend on which bullet it
  // saw before (storage order is arbitrary). Two phases, in store_.update(team, ...):
  //   phase one  walk the pool (or the active list) in chunks on `team`'s threads, hit and steer
  //              running for chunk k concurrently with other chunks: move each bullet, and mark
  //              it dead (false) if it left, aged out or hit;
  //   phase two  after the walk, on this thread, release every marked bullet in walk order and
  //              mend the list (swap-pop, or a merge that keeps it in slot order). No release
  //              happens inside the walk, so the hit test always sees a whole pool.
  template <class HitTest, class Steer>
  void update(engine::WorkerTeam& team, float dt, const Rect& alive_area, HitTest&& hit, Steer&& steer) {
    store_.update(team, [&](std::size_t k, Bullet& b) {
      steer(k, b);
      return move_and_keep(b, dt, alive_area) && !hit(k, static_cast<const Bullet&>(b));
    });
  }

  ObjectStore<Bullet>& store() noexcept { return store_; }
  const ObjectStore<Bullet>& store() const noexcept { return store_; }

 private:
  static Bullet make_bullet(Vec2 pos, Vec2 vel, float radius, std::uint32_t color, std::int32_t damage,
                            std::uint64_t seq) noexcept {
    Bullet b;
    b.pos = b.prev = pos;
    b.vel = vel;
    b.radius = radius;
    b.color = color;
    b.damage = damage;
    b.seq = seq;
    return b;
  }
  // One step of flight: false when the bullet left the field or aged out.
  static bool move_and_keep(Bullet& b, float dt, const Rect& alive_area) noexcept {
    b.prev = b.pos;
    b.pos = b.pos + b.vel * dt;
    b.age += dt;
    return alive_area.contains(b.pos) && b.age <= kMaxAgeSeconds;
  }

  ObjectStore<Bullet> store_;
  std::uint64_t next_seq_ = 1;
};

}  // namespace game
