#pragma once
// game::EnemyManager: the waves, and the enemies they bring, in an ObjectStore.
// Enemies fly to a station, sway there, fire their pattern, and after their stay leave
// through the top edge. Each step they are visited in spawn order (a seq-sorted scratch
// list), so the bullets they fire get sequence numbers in an order storage cannot change.
#include "sim/bullet_manager.hpp"
#include "sim/entities.hpp"
#include "sim/object_store.hpp"
#include "sim/scenario.hpp"

#include <engine/pool/worker_team.hpp>

#include <cstdint>
#include <vector>

namespace game {

class EnemyManager {
 public:
  EnemyManager(const engine::GrowthPolicy& policy, bool pooled, std::uint64_t seed, const Scenario& scenario, float dt);

  // Advances the wave clock; spawns every wave that is due (count x density enemies).
  void spawn_due_waves(float dt, float density);
  // One charger (enemy_kinds.hpp) entering at `at` and flying at `target` (where the player
  // stands) at `speed`, on past it; false at capacity.
  bool spawn_charger(Vec2 at, Vec2 target, float speed);
  // Rebuilds by_seq(): the live enemies sorted by sequence number. Call after spawning.
  void sort_by_seq();
  const std::vector<Enemy*>& by_seq() const noexcept { return by_seq_; }
  // The store handle of by_seq()[i]: what a homing shot keeps (valid across steps, unlike
  // the pointer; refused by the store once that enemy died, whoever took its slot).
  const std::vector<engine::PoolHandle>& handles_by_seq() const noexcept { return handles_by_seq_; }
  // Moves every enemy and aims its volleys, split across `team`: chunk k takes a run
  // of by_seq() and writes only those enemies and its own shot buffer. Then the shots are fired
  // in chunk order (BulletManager::fire_chunked, built on the team too), so the bullets get their
  // seq numbers in the order one thread gives them: the game is the same at any thread count.
  // aim_at: the player, or nothing when dead.
  void update(engine::WorkerTeam& team, float dt, const Vec2* aim_at, BulletManager& enemy_bullets);
  // Room in the per-step buffers (by_seq(), one shot buffer per chunk of `chunks`) for every
  // enemy the store holds now and the most any of them can fire in a step of `dt`: called at the
  // end of every step (Simulation::make_room), so a step after the store grew allocates nothing.
  void fit_buffers(std::size_t chunks, float dt);
  // Releases enemies that died or left (two-phase, after everything else this step).
  void sweep();
  // Forgets all enemies and starts the wave list again (a restart).
  void restart();

  std::uint32_t waves_started() const noexcept { return waves_started_; }
  std::uint32_t loop_level() const noexcept { return loop_level_; }
  float wave_clock() const noexcept { return wave_clock_; }
  std::size_t next_wave() const noexcept { return next_wave_; }
  ObjectStore<Enemy>& store() noexcept { return store_; }
  const ObjectStore<Enemy>& store() const noexcept { return store_; }
  std::uint64_t next_seq() const noexcept { return next_seq_; }

 private:
  void spawn_wave(const WaveConfig& wave, float density);
  WaveConfig at_loop_level(const WaveConfig& config) const noexcept;  // the wave made tougher per loop
  struct Shot {  // an enemy bullet aimed in the parallel pass, fired after it
    Vec2 pos, vel;
    std::uint32_t color;
  };
  struct alignas(64) ShotBuffer {  // one chunk's shots; own cache lines: chunks run on different cores
    std::vector<Shot> shots;
    std::size_t first = 0;  // how many shots the buffers before this one hold
  };
  void move_and_aim(Enemy& e, float dt, const Vec2* aim_at, std::vector<Shot>& shots) const;
  void aim_volley(Enemy& e, const Vec2* aim_at, std::vector<Shot>& shots) const;
  void fly_charger(Enemy& e, float dt, const Vec2* aim_at) const;
  std::size_t most_shots_per_enemy(float dt) const noexcept;

  ObjectStore<Enemy> store_;
  std::uint64_t seed_;
  const Scenario* scenario_;
  float approach_;  // fraction of the way to the target covered per step
  struct Entry {
    Enemy* enemy;
    engine::PoolHandle handle;
  };
  std::vector<Entry> sorting_;                      // scratch for sort_by_seq
  std::vector<Enemy*> by_seq_;                      // scratch, capacity kept (no allocation once warm)
  std::vector<engine::PoolHandle> handles_by_seq_;  // parallel to by_seq_
  std::vector<ShotBuffer> shot_buffers_;            // one per chunk of update(); capacity kept
  float wave_clock_ = 0;                            // seconds until the next wave
  std::size_t next_wave_ = 0;
  std::uint32_t waves_started_ = 0;
  std::uint32_t loop_level_ = 0;  // completed passes through the wave list
  std::uint64_t next_seq_ = 1;
};

}  // namespace game
