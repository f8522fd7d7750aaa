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
    Bullet b;
    b.pos = b.prev = pos;
    b.vel = vel;
    b.radius = radius;
    b.color = color;
    b.damage = damage;
    b.seq = next_seq_++;  // consumed even when refused, so later numbers do not depend on capacity
    return store_.spawn_handle(b);
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
