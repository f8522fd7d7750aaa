#pragma once
// game::Simulation: the whole shooter, one fixed 1/60 s step at a time, with no window.
// Init / Update / Draw in the raylib rhythm: the constructor sets up, step() updates, and the
// app layer draws (app/sprite_list.hpp reads the const view below). The simulation itself
// draws nothing and includes no runtime header: its target links engine::pool alone.
//
// Determinism: the same scenario, seed and inputs give the same state_hash() whatever the
// storage (pooled or heap, contiguous or stable, any growth policy, switched at any time):
// order-sensitive decisions go by spawn sequence number, random numbers are keyed by
// identity, and the hash visits objects in spawn order.
#include "sim/bullet_manager.hpp"
#include "sim/collision_grid.hpp"
#include "sim/enemy_manager.hpp"
#include "sim/growth_log.hpp"
#include "sim/input.hpp"
#include "sim/particle_system.hpp"
#include "sim/scenario.hpp"
#include "sim/settings.hpp"
#include "sim/thread_controller.hpp"

#include <engine/pool/worker_team.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace game {

struct SimStats {
  std::array<StoreStats, kPoolCount> pools{};  // indexed by PoolId
  std::int64_t score = 0;
  int lives = 0;
  std::uint32_t wave = 0;        // waves started this game
  std::uint32_t loop_level = 0;  // completed passes through the wave list
  bool game_over = false;
  std::uint64_t game_over_frame = 0;  // the step the last life went, this game; 0 while playing
  std::uint64_t frame = 0;            // simulated steps
  std::uint64_t kills = 0, hits = 0, deaths = 0, restarts = 0;  // this run
  std::uint64_t growth_events = 0;                              // all pools, this run (rebuilds not included)
  std::uint64_t rebuilds = 0;                                   // pools rebuilt by switching pooling back on, this run
  std::uint64_t cancels = 0;                                    // enemy bullets the player's storm cancelled, this run
  std::uint64_t stale_refusals = 0;  // homing shots whose target handle the enemy store refused (it died), this run
  std::uint64_t homing_live = 0;     // homing shots in flight
  float heat_multiplier = 1;         // the held-fire escalation in force (1 .. max_multiplier)
  float heat_fraction = 0;           // the same on a 0..1 scale (log2), for the HUD meter
  float camping_seconds = 0;         // how long the player has stood still (CampingConfig): the HUD warns
  std::uint64_t chargers = 0;        // chargers that standing still drew, this run
  bool pooling = true;               // the pooling in force after this step (settings applied)
  bool grew = false;                 // a pool grew during this step (growth_events moved)
  bool rebuilt = false;              // a pool was rebuilt during this step (rebuilds moved)
  std::uint8_t switched = 0;         // switch_bit()s of what this step's settings changed (settings.hpp)
  std::uint32_t threads = 1;         // the update phase's threads that ran this step
  // --threads auto (Settings::threads kAutoThreads): the last measurement, many threads' median
  // step time over one thread's (0 before the first), how many "many" is, and whether this step
  // was a probe (the other count, run to measure).
  bool threads_auto = false;
  double threads_ratio = 0;
  std::uint32_t threads_measured = 1;
  bool threads_probing = false;
  // This step's phases (ms): bullets' and particles' update (phase one, on the threads) and
  // release (phase two, in order), and the collision grid's build.
  double update_ms = 0, release_ms = 0, collision_ms = 0;
  double update_ms_total = 0, release_ms_total = 0, collision_ms_total = 0;  // the same, summed over this run
};

class Simulation {
 public:
  static constexpr float kStepSeconds = 1.0f / 60.0f;  // the only dt the game ever sees

  // The scenario is copied; `seed` replaces scenario.seed (pass scenario.seed to keep it).
  Simulation(const Scenario& scenario, std::uint64_t seed);
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Advances one fixed step. With settings().autofire the autopilot fires (with_autopilot).
  void step(const Input& input);

  // The overlay writes here; the next step() applies what changed (pooling migrates every
  // live object, storage/growth call VectorPool::set_policy) and writes back what it
  // accepted (values are clamped to sane ranges; a refused policy keeps the old one).
  Settings& settings() noexcept { return settings_; }
  const Settings& applied_settings() const noexcept { return applied_; }

  // FNV-1a over the whole game state, objects in spawn order. Allocates scratch (not per step).
  std::uint64_t state_hash() const;
  // Built once per step, at its end (and by the constructor): the overlay, the report, the
  // recorders and the audio all read this one copy. Nothing outside step() changes the game.
  const SimStats& stats() const noexcept { return stats_; }
  std::uint64_t stats_builds() const noexcept { return stats_builds_; }  // steps + 1: a test counts it
  // Pool growths so far, oldest first (at most kGrowthLogCapacity; later ones are counted only).
  const std::vector<GrowthRecord>& growth_log() const noexcept { return growth_log_.records(); }
  std::uint64_t growth_log_dropped() const noexcept { return growth_log_.dropped(); }

  // What the autopilot would press this step (used by step() when autofire is on).
  Input autopilot_input() const;
  // What step() plays with autofire on: the autopilot's fire and aim, the player's own
  // movement, aim (while the player fires too) and restart wherever the player gives them.
  Input with_autopilot(const Input& player) const;

  // Read-only: f(PoolId, const ObjectStore<T>&) for each of the four stores (the memory map).
  template <class F>
  void visit_stores(F&& f) const {
    f(PoolId::bullets, player_bullets_.store());
    f(PoolId::enemy_bullets, enemy_bullets_.store());
    f(PoolId::particles, particles_.store());
    f(PoolId::enemies, enemies_.store());
  }
  const Scenario& scenario() const noexcept { return scenario_; }
  std::uint64_t seed() const noexcept { return seed_; }
  Rect world() const noexcept { return {{0, 0}, {scenario_.world_width, scenario_.world_height}}; }
  Vec2 player_position() const noexcept { return player_.pos; }  // where a gamepad aims from

  // The read-only view the sprite list is drawn from (app/sprite_list.hpp).
  struct ShipView {
    Vec2 pos, prev;  // this step and the last, for interpolation
    Vec2 aim;        // unit vector
    float shield;    // seconds of invulnerability left (the ship blinks in a bubble)
    bool alive;
  };
  ShipView ship() const noexcept { return {player_.pos, player_.prev, player_.aim, player_.shield, player_.alive}; }
  const BulletManager& player_bullets() const noexcept { return player_bullets_; }
  const BulletManager& enemy_bullets() const noexcept { return enemy_bullets_; }
  const ParticleSystem& particles() const noexcept { return particles_; }
  const EnemyManager& enemies() const noexcept { return enemies_; }
  float game_time() const noexcept { return game_time_; }  // seconds since (re)start: the stars scroll by it
  std::uint64_t frame() const noexcept { return frame_; }
  bool game_over() const noexcept { return game_over_; }

  static constexpr std::size_t kGrowthLogCapacity = GrowthLog::kCapacity;

 private:
  struct Player {
    Vec2 pos, prev;
    Vec2 aim{0, 1};          // unit vector
    float fire_charge = 1;   // shots owed; >= 1 fires (so a tap fires at once)
    float trail_charge = 0;  // trail particles owed
    float shield = 0;        // seconds of invulnerability left
    float heat = 0;          // doublings of held fire so far (0 .. log2 max_multiplier)
    int lives = 3;
    bool alive = true;
    Vec2 camp_anchor;        // where the player last stood still (CampingConfig)
    float camp_seconds = 0;  // how long within camping.radius of camp_anchor
    float charger_owed = 0;  // chargers due (fractional), while camping past the grace
  };
  struct Cancel {  // an enemy bullet the storm touched this step
    std::uint64_t bullet_seq;
    Vec2 pos, vel;
  };
  struct Hit {  // a player bullet that struck an enemy this step
    std::uint64_t bullet_seq;
    std::uint32_t enemy;  // index into enemies_.by_seq()
    std::int32_t damage;
    Vec2 pos, vel;
  };

  void apply_settings();
  void size_team(std::uint32_t threads);  // a team for a threads setting, its controller afresh
  void restart();
  // Steps 1 and 2 of step(): its serial start, run beside the particles' walk.
  void start_step(const Input& input, float dt, const Rect& alive_area);
  std::ptrdiff_t storm_cell(Vec2 at) const noexcept;  // -1: outside the storm's cells
  void update_player(const Input& input);
  void update_heat(bool firing);
  float heat_multiplier() const noexcept;
  // Per step, the pools back at most this much fresh memory between them, ahead of their
  // spawns (64 page faults, ~0.2 ms on a 2-vCPU VM): about what the storm's ramp writes a
  // step, without a frame that pays for many pages at once.
  static constexpr std::size_t kPrefaultPerStep = std::size_t{256} << 10;
  void make_room(std::size_t prefault_bytes);
  void fire_weapon(float shots, int bullets_per_shot);
  void emit_trail();
  void update_camping();
  Vec2 charger_entry(std::uint64_t n) const;
  std::uint32_t ram_ship(bool vulnerable);
  void resolve_cancels();
  int spark_count(int base) const noexcept;
  void resolve_hits();
  void kill_enemy(const Enemy& enemy);
  void lose_life();
  void explode(Vec2 at, int count, float scale);
  StoreStats pool_stats(PoolId id) const;
  void refresh_stats();

  Scenario scenario_;
  std::uint64_t seed_;
  Settings settings_;  // requested (overlay)
  Settings applied_;   // in force this step
  BulletManager player_bullets_;
  BulletManager enemy_bullets_;
  ParticleSystem particles_;
  EnemyManager enemies_;
  CollisionGrid grid_;
  Player player_;
  std::vector<Hit> hits_;        // scratch, capacity follows the bullet store
  std::vector<Cancel> cancels_;  // scratch, capacity follows the enemy bullet store
  // What one chunk of a parallel bullet pass collects: merged after the pass, in
  // chunk order, into hits_, cancels_ and the counters. Own cache lines: chunks run on different cores.
  struct alignas(64) ChunkScratch {
    std::vector<Hit> hits;
    std::vector<Cancel> cancels;
    std::vector<std::uint8_t> storm_cells;  // the cells this chunk's player bullets occupy (storm_cells_)
    std::uint64_t homing_after = 0, stale_refusals = 0;
    std::uint32_t ship_hits = 0;
  };
  void prepare_chunks();                     // one ChunkScratch per chunk, reserved for the stores' capacities
  engine::WorkerTeam team_;                  // the update phase's threads (settings().threads)
  ThreadController thread_choice_{1};        // how many of them run, under --threads auto
  std::vector<ChunkScratch> chunk_scratch_;  // ObjectStore::chunk_count(team_) of them
  // Cells of the playfield that a player bullet occupies this step: an enemy bullet in a
  // marked cell is cancelled. Marking, not pairing, so the result is order-independent. Each
  // chunk of the player bullets' pass marks its own copy (ChunkScratch::storm_cells), merged
  // here after it: one shared array had both cores write the same few dozen lines, and the
  // pass ran as slowly on two threads as on one.
  std::vector<std::uint8_t> storm_cells_;
  std::size_t storm_cell_count_ = 0;
  Vec2 storm_origin_{};  // the storm's cells start at the alive area's corner
  std::int32_t storm_columns_ = 0, storm_rows_ = 0;
  std::uint64_t cancels_total_ = 0;
  std::uint64_t stale_refusals_ = 0;  // homing lookups the enemy store refused
  std::uint64_t homing_live_ = 0;     // homing shots alive after the last bullet pass (max_live caps it)
  float aura_radius_ = 0;             // this step: enemy bullets nearer the ship than this are cancelled
  GrowthLog growth_log_{frame_};      // reads frame_ when a pool grows (declared below: only its address is taken here)
  std::int64_t score_ = 0;
  std::uint64_t frame_ = 0;
  float game_time_ = 0;       // seconds since (re)start, for the autopilot and the stars
  float game_over_time_ = 0;  // seconds since the game ended
  bool game_over_ = false;
  std::uint64_t game_over_frame_ = 0;
  std::uint64_t kills_ = 0, hits_total_ = 0, deaths_ = 0, restarts_ = 0;
  std::uint64_t chargers_ = 0;  // drawn by standing still, this run (keys each one's entry point)
  std::uint8_t switched_ = 0;   // this step's apply_settings(): SimStats::switched
  double collision_ms_ = 0;     // this step's grid build
  SimStats stats_;
  std::uint64_t stats_builds_ = 0;
};

}  // namespace game
