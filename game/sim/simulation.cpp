#include "sim/simulation.hpp"

#include "sim/color.hpp"
#include "sim/enemy_kinds.hpp"
#include "sim/explosion.hpp"
#include "sim/homing.hpp"
#include "sim/rng.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace game {

namespace {

constexpr float kPlayerRadius = 4;  // bullet-hell hitbox: much smaller than the ship
constexpr float kPlayerBulletRadius = 3;
constexpr float kBulletMargin = 48;  // bullets live this far past the edges
constexpr float kGridCell = 64;
constexpr float kMaxPlayerBulletsPerSecond = 1e6f;
constexpr float kMaxTrailPerSecond = 1e6f;
constexpr float kAuraPerDoubling = 12;  // held fire cancels enemy bullets this close to the ship, per doubling
constexpr float kStormCell = 16;        // an enemy bullet in a cell a player bullet occupies is cancelled

engine::GrowthPolicy make_policy(const PoolConfig& pool, engine::StorageMode storage) {
  engine::GrowthPolicy p;
  p.initial_capacity = pool.initial_capacity;
  p.growth_step = pool.growth_step;
  p.max_capacity = pool.max_capacity;
  p.storage = storage;
  p.page_slots = pool.page_slots;
  return p;
}

bool same_pool(const PoolConfig& a, const PoolConfig& b) {
  return a.initial_capacity == b.initial_capacity && a.growth_step == b.growth_step &&
         a.max_capacity == b.max_capacity && a.page_slots == b.page_slots;
}

// Keeps overlay-entered values inside what the scenario loader would accept.
void sanitize(Settings& s, const WeaponConfig& weapon) {
  s.stress = std::clamp(s.stress, 0.01f, 1000.0f);
  const float per_stress = weapon.shots_per_second * static_cast<float>(weapon.bullets_per_shot);
  s.stress = std::min(s.stress, kMaxPlayerBulletsPerSecond / per_stress);
  s.enemy_density = std::clamp(s.enemy_density, 0.0f, 100.0f);
  s.threads = std::min(s.threads, kMaxThreads);  // kAutoThreads (0) stays
  s.particles_per_explosion = std::clamp(s.particles_per_explosion, 0, 100000);
  s.sparks_per_hit = std::clamp(s.sparks_per_hit, 0, 1000);
  s.trail_per_second = std::clamp(s.trail_per_second, 0.0f, 100000.0f);
  for (PoolConfig& p : s.pools) {
    p.max_capacity = std::clamp<std::size_t>(p.max_capacity, 1, kPoolCapacityCap);
    p.initial_capacity = std::clamp<std::size_t>(p.initial_capacity, 1, p.max_capacity);
    p.growth_step = std::min(p.growth_step, kPoolCapacityCap);
    // page_slots is left as asked: the pool applies its own rule (engine::page_slots_for).
  }
}

// A burst as data: all but what is set per burst (count, direction, and whatever else varies).
constexpr BurstSpec burst_of(ParticleKind kind, float cone, float speed_min, float speed_max, float life_min,
                             float life_max, float size_min, float size_max, float damping, std::uint32_t color) {
  BurstSpec spec;
  spec.kind = kind;
  spec.cone = cone;
  spec.speed_min = speed_min;
  spec.speed_max = speed_max;
  spec.life_min = life_min;
  spec.life_max = life_max;
  spec.size_min = size_min;
  spec.size_max = size_max;
  spec.damping_per_second = damping;
  spec.color = color;
  return spec;
}
// The bursts that are not explosions (explosion.hpp), in burst_of's order: kind, cone, speed,
// life and size ranges, damping, colour.
// The sparks of a player bullet striking an enemy (thrown back towards the shooter),
constexpr BurstSpec kHitSparks =
    burst_of(ParticleKind::spark, 2.2f, 120, 360, 0.15f, 0.35f, 4, 7, 0.05f, rgba(255, 240, 160));
// the sparks of an enemy bullet the storm cancelled (thrown on along its path),
constexpr BurstSpec kCancelSparks =
    burst_of(ParticleKind::spark, 2.6f, 60, 220, 0.15f, 0.35f, 3, 6, 0.05f, rgba(255, 120, 200));
// the engine trail, down from the ship; its cone and lives widen with the escalation's heat.
constexpr BurstSpec kTrail =
    burst_of(ParticleKind::trail, 0.6f, 60, 150, 0.25f, 0.5f, 5, 9, 0.3f, rgba(90, 170, 255, 200));

// The player's explosions (an enemy's is its kind's death_blast): a lost life, the last one.
constexpr BlastSpec kLifeLostBlast{1, 2, 1.0f};
constexpr BlastSpec kGameOverBlast{2, 1, 1.6f};

constexpr std::uint32_t kShotColor = rgba(120, 255, 230);
constexpr std::uint32_t kHomingColor = rgba(255, 190, 60);  // amber: a player sees which shots curve

}  // namespace

Simulation::Simulation(const Scenario& scenario, std::uint64_t seed)
    : scenario_(scenario),
      seed_(seed),
      settings_(settings_from(scenario)),
      applied_(settings_),
      player_bullets_(make_policy(scenario.pools[0], scenario.storage), scenario.pooling, scenario.walk),
      enemy_bullets_(make_policy(scenario.pools[1], scenario.storage), scenario.pooling, scenario.walk),
      particles_(make_policy(scenario.pools[2], scenario.storage), scenario.pooling, seed, kStepSeconds, scenario.walk),
      enemies_(make_policy(scenario.pools[3], scenario.storage), scenario.pooling, seed, scenario_, kStepSeconds),
      grid_(world().expanded(kBulletMargin + kGridCell), kGridCell, kPlayerBulletRadius) {
  enemies_.store().set_walk(scenario.walk);  // a few hundred at most, but walked the same way
  const Rect storm = world().expanded(kBulletMargin);
  storm_origin_ = storm.min;
  storm_columns_ = static_cast<std::int32_t>(std::ceil((storm.max.x - storm.min.x) / kStormCell));
  storm_rows_ = static_cast<std::int32_t>(std::ceil((storm.max.y - storm.min.y) / kStormCell));
  storm_cell_count_ = static_cast<std::size_t>(storm_columns_) * static_cast<std::size_t>(storm_rows_);
  storm_cells_.assign(storm_cell_count_, 0);
  grid_.reserve(enemies_.store().capacity());
  player_bullets_.store().attach_growth_log(growth_log_, PoolId::bullets);
  enemy_bullets_.store().attach_growth_log(growth_log_, PoolId::enemy_bullets);
  particles_.store().attach_growth_log(growth_log_, PoolId::particles);
  enemies_.store().attach_growth_log(growth_log_, PoolId::enemies);
  sanitize(applied_, scenario_.weapon);
  settings_ = applied_;
  size_team(applied_.threads);
  make_room(std::numeric_limits<std::size_t>::max());  // the starting capacity backed while the game loads
  prepare_chunks();  // scratch sized for the stores now, so the first step allocates nothing either
  restart();
  restarts_ = 0;
  refresh_stats();
}

// Room for the next step's bursts, grown and backed at the end of this one (ObjectStore::make_room).
// The prefault budget is shared: the pools back memory in turn until it is spent. A step that
// grew a pool here has paid for memory already and backs none (one memory cost per step), and
// sizes the scratch kept per capacity now, so the next step allocates nothing.
// The step is calm, and the pools may grow, when no pool that makes large bursts (an eighth of
// the largest of any pool's, or more: in the storm the particles) had one in it: the step's frame
// costs what its spawns cost, and the small pools' steady rises do not make it expensive.
void Simulation::make_room(std::size_t prefault_bytes) {
  auto& bullets = player_bullets_.store();
  auto& enemy_bullets = enemy_bullets_.store();
  auto& particles = particles_.store();
  auto& enemies = enemies_.store();
  const std::size_t largest = std::max(
      {bullets.largest_burst(), enemy_bullets.largest_burst(), particles.largest_burst(), enemies.largest_burst()});
  const auto bursting = [largest](const auto& store) {
    return 8 * store.largest_burst() >= largest && store.bursting();
  };
  const bool calm = !(bursting(bullets) || bursting(enemy_bullets) || bursting(particles) || bursting(enemies));
  bool grew = bullets.make_room(calm);
  grew |= enemy_bullets.make_room(calm);
  grew |= particles.make_room(calm);
  grew |= enemies.make_room(calm);
  enemies_.fit_buffers(team_.size(), kStepSeconds);  // the next step's buffers, whenever the store grew
  if (grew) {
    prepare_chunks();
    grid_.reserve(enemies_.store().capacity());
    return;
  }
  prefault_bytes -= std::min(prefault_bytes, particles.prefault(prefault_bytes));
  prefault_bytes -= std::min(prefault_bytes, enemy_bullets.prefault(prefault_bytes));
  prefault_bytes -= std::min(prefault_bytes, bullets.prefault(prefault_bytes));
  enemies.prefault(prefault_bytes);
}

void Simulation::prepare_chunks() {
  const std::size_t chunks = ObjectStore<Bullet>::chunk_count(team_);
  if (chunk_scratch_.size() != chunks) chunk_scratch_.resize(chunks);  // allocates only when the threads change
  const std::size_t bullets = player_bullets_.store().capacity();
  const std::size_t enemy_bullets = enemy_bullets_.store().capacity();
  hits_.reserve(bullets);  // all of these allocate only after a store grew
  cancels_.reserve(enemy_bullets);
  // A chunk holds at most capacity / chunks objects, plus a word of rounding (VectorPool::chunk_bound).
  for (ChunkScratch& chunk : chunk_scratch_) {
    chunk.hits.clear();
    chunk.cancels.clear();
    // Allocates only for a new chunk. Unmarked in a game without cancels: unread there, and
    // clearing every chunk's copy each step cost more at two threads (lines from the other core).
    if (scenario_.escalation.cancels_enemy_bullets) chunk.storm_cells.assign(storm_cell_count_, 0);
    chunk.homing_after = chunk.stale_refusals = 0;
    chunk.ship_hits = 0;
    chunk.hits.reserve(bullets / chunks + 64);
    chunk.cancels.reserve(enemy_bullets / chunks + 64);
  }
}

void Simulation::restart() {
  player_bullets_.store().clear();
  enemy_bullets_.store().clear();
  particles_.store().clear();
  enemies_.restart();
  player_ = Player{};
  player_.pos = player_.prev = player_.camp_anchor = {scenario_.world_width * 0.5f, scenario_.world_height * 0.12f};
  player_.lives = scenario_.player.lives;
  player_.shield = scenario_.player.respawn_shield_seconds;
  score_ = 0;
  homing_live_ = 0;
  game_time_ = 0;
  game_over_time_ = 0;
  game_over_ = false;
  game_over_frame_ = 0;
  ++restarts_;
}

void Simulation::apply_settings() {
  Settings want = settings_;
  sanitize(want, scenario_.weapon);
  // Growth policy and storage mode: VectorPool::set_policy migrates live objects in place.
  const auto set_policy = [&](PoolId id, auto& store) {
    const auto i = static_cast<std::size_t>(id);
    if (same_pool(want.pools[i], applied_.pools[i]) && want.storage == applied_.storage) return;
    // Refused (max_capacity below the current capacity): keep the policy in force.
    if (!store.set_policy(make_policy(want.pools[i], want.storage))) want.pools[i] = applied_.pools[i];
  };
  set_policy(PoolId::bullets, player_bullets_.store());
  set_policy(PoolId::enemy_bullets, enemy_bullets_.store());
  set_policy(PoolId::particles, particles_.store());
  set_policy(PoolId::enemies, enemies_.store());
  // Walk: bitmap <-> list builds or drops the active lists; swap-pop -> slot order sorts them once.
  if (want.walk != applied_.walk) {
    player_bullets_.store().set_walk(want.walk);
    enemy_bullets_.store().set_walk(want.walk);
    particles_.store().set_walk(want.walk);
    enemies_.store().set_walk(want.walk);
  }
  // Pooling: every live object moves between the pool's layout and its heap layout (its own
  // allocation each). Handles stay valid: homing shots keep their targets with no patching.
  if (want.pooling != applied_.pooling) {
    player_bullets_.store().set_pooling(want.pooling);
    enemy_bullets_.store().set_pooling(want.pooling);
    particles_.store().set_pooling(want.pooling);
    enemies_.store().set_pooling(want.pooling);
  }
  // Threads: the team restarts its workers between steps; the game does not change. Auto starts
  // measuring afresh; a forced count uses every thread of the team.
  if (want.threads != applied_.threads) {
    size_team(want.threads);
  }
  team_.set_active(want.threads == kAutoThreads ? thread_choice_.threads() : team_.size());
  switched_ = switches_between(applied_, want);
  applied_ = want;
  settings_ = want;
}

void Simulation::size_team(std::uint32_t threads) {
  team_.resize(team_size_for(threads));
  thread_choice_ = ThreadController(static_cast<std::uint32_t>(team_.size()));
}

void Simulation::step(const Input& external) {
  const auto step_started = std::chrono::steady_clock::now();
  apply_settings();
  // The team's first pass comes after the serial start below: a worker that slept through the
  // frame's render wakes meanwhile, instead of in that pass.
  team_.wake();
  const Input input = applied_.autofire ? with_autopilot(external) : external;
  if (input.restart) restart();
  const float dt = kStepSeconds;
  ++frame_;
  game_time_ += dt;
  if (game_over_) game_over_time_ += dt;

  const Rect alive_area = world().expanded(kBulletMargin);
  // Steps 1 and 2 (start_step) run on this thread while the team's workers start moving the
  // particles of the last steps (ParticleSystem::update with beside): nothing there touches those
  // particles; the bursts it makes are only queued, and spawn in step 4. The team runs it makes
  // go inline meanwhile.
  particles_.update(team_, dt, [&] { start_step(input, dt, alive_area); });
  // The storm's cells are marked only where they cancel enemy bullets (storm_cells_).
  const bool cancelling = scenario_.escalation.cancels_enemy_bullets;

  // 3. Enemy bullets move; one in a cell the player's storm occupies is cancelled (sparks,
  //    applied in bullet-seq order), the rest test the ship. Every bullet touching a
  //    vulnerable ship is spent; the ship loses one life however many touched it.
  const bool vulnerable = player_.alive && player_.shield <= 0 && !scenario_.player.invulnerable;
  const Vec2 ship = player_.pos;
  enemy_bullets_.update(
      team_, dt, alive_area,
      [&](std::size_t k, const Bullet& b) {
        const bool in_aura = length_squared(b.pos - ship) < aura_radius_ * aura_radius_;
        const std::ptrdiff_t cell = storm_cell(b.pos);
        if (cancelling && (in_aura || (cell >= 0 && storm_cells_[static_cast<std::size_t>(cell)] != 0))) {
          chunk_scratch_[k].cancels.push_back({b.seq, b.pos, b.vel});
          return true;
        }
        if (!vulnerable) return false;
        const float reach = kPlayerRadius + b.radius;
        if (length_squared(b.pos - ship) > reach * reach) return false;
        ++chunk_scratch_[k].ship_hits;
        return true;
      },
      [](std::size_t, Bullet&) {});
  cancels_.clear();
  std::uint32_t ship_hits = 0;
  for (ChunkScratch& chunk : chunk_scratch_) {
    cancels_.insert(cancels_.end(), chunk.cancels.begin(), chunk.cancels.end());
    ship_hits += chunk.ship_hits;
  }
  ship_hits += ram_ship(vulnerable);
  if (ship_hits > 0) lose_life();
  resolve_cancels();

  // 4. Two-phase releases of the dead enemies, then this step's particle bursts (moved by their
  //    first step as they spawn: the others moved beside steps 1 and 2).
  enemies_.sweep();
  particles_.spawn_bursts(team_);
  // 5. Room for the next step's spawns, last: a growth here lands in a step whose bursts are
  //    known (make_room grows on a calm one), not in the next, which may be a burst.
  make_room(kPrefaultPerStep);
  // The step's time on the threads it ran: --threads auto keeps the faster count (the stats
  // below report the count that ran this step).
  if (applied_.threads == kAutoThreads) {
    thread_choice_.record(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - step_started).count());
  }
  refresh_stats();
}

// Steps 1 and 2 of step(), its serial start (the particles' walk runs beside it).
void Simulation::start_step(const Input& input, float dt, const Rect& alive_area) {
  // The storm's cells are marked only where they cancel enemy bullets (step 3, storm_cells_).
  const bool cancelling = scenario_.escalation.cancels_enemy_bullets;
  // 1. New enemies, then everyone in spawn order: the ship fires, enemies fly and fire.
  // Nothing new arrives once the game is over: the wave clock stops with the player.
  if (!game_over_) enemies_.spawn_due_waves(dt, applied_.enemy_density);
  enemies_.sort_by_seq();
  update_player(input);
  update_camping();
  enemies_.update(team_, dt, player_.alive ? &player_.pos : nullptr, enemy_bullets_);

  // 2. Player bullets move and test the enemy grid; hits are collected, then applied in
  //    bullet-seq order so "which hit kills" never depends on storage order.
  grid_.reserve(enemies_.store().capacity());
  const auto grid_started = std::chrono::steady_clock::now();
  grid_.build(enemies_.by_seq());
  collision_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - grid_started).count();
  prepare_chunks();
  // Each chunk of the pass writes its own ChunkScratch (its hits, counters and storm cells); the
  // grid and the enemies are only read. Hits are applied in bullet-seq order afterwards.
  const auto hit_test = [&](std::size_t k, const Bullet& b) {
    if (cancelling) {
      const std::ptrdiff_t cell = storm_cell(b.pos);
      if (cell >= 0) chunk_scratch_[k].storm_cells[static_cast<std::size_t>(cell)] = 1;
    }
    const std::int32_t enemy = grid_.first_overlap(b.pos, b.radius);
    if (enemy < 0) {
      if (b.homing()) ++chunk_scratch_[k].homing_after;
      return false;
    }
    chunk_scratch_[k].hits.push_back({b.seq, static_cast<std::uint32_t>(enemy), b.damage, b.pos, b.vel});
    return true;
  };
  if (scenario_.homing.share > 0) {
    const HomingField field{enemies_.store(), grid_, enemies_.by_seq(), enemies_.handles_by_seq(), world()};
    player_bullets_.update(team_, dt, alive_area, hit_test, [&](std::size_t k, Bullet& b) {
      steer_homing_shot(b, field, scenario_.homing, frame_, dt, chunk_scratch_[k].stale_refusals);
    });
  } else {
    player_bullets_.update(team_, dt, alive_area, hit_test, [](std::size_t, Bullet&) {});
  }
  hits_.clear();
  homing_live_ = 0;
  std::uint64_t refusals = 0;
  if (cancelling) std::fill(storm_cells_.begin(), storm_cells_.end(), std::uint8_t{0});
  for (ChunkScratch& chunk : chunk_scratch_) {
    if (cancelling) {
      for (std::size_t c = 0; c < storm_cell_count_; ++c) storm_cells_[c] |= chunk.storm_cells[c];
    }
    hits_.insert(hits_.end(), chunk.hits.begin(), chunk.hits.end());  // reserved: no allocation
    homing_live_ += chunk.homing_after;                               // a count: the same in any storage order
    refusals += chunk.stale_refusals;
  }
  stale_refusals_ += refusals;
  enemies_.store().note_stale_lookups(refusals);  // steering checked contains(), which counts nothing
  resolve_hits();
}

// The storm cell `at` lies in; -1 outside the storm's cells.
std::ptrdiff_t Simulation::storm_cell(Vec2 at) const noexcept {
  const auto cx = static_cast<std::int32_t>((at.x - storm_origin_.x) * (1.0f / kStormCell));
  const auto cy = static_cast<std::int32_t>((at.y - storm_origin_.y) * (1.0f / kStormCell));
  if (cx < 0 || cy < 0 || cx >= storm_columns_ || cy >= storm_rows_) return -1;
  return static_cast<std::ptrdiff_t>(cy) * storm_columns_ + cx;
}

void Simulation::update_player(const Input& input) {
  Player& p = player_;
  aura_radius_ = 0;
  p.prev = p.pos;
  p.shield = std::max(0.0f, p.shield - kStepSeconds);
  if (!p.alive) return;
  Vec2 move{std::clamp(input.move_x, -1.0f, 1.0f), std::clamp(input.move_y, -1.0f, 1.0f)};
  const float len2 = length_squared(move);
  if (len2 > 1.0f) move = move * (1.0f / std::sqrt(len2));  // diagonals are not faster
  p.pos = p.pos + move * (scenario_.player.speed * kStepSeconds);
  const Rect bounds = world().expanded(-16);
  p.pos.x = std::clamp(p.pos.x, bounds.min.x, bounds.max.x);
  p.pos.y = std::clamp(p.pos.y, bounds.min.y, bounds.max.y);
  const Vec2 to_aim = input.aim - p.pos;
  const float aim_len2 = length_squared(to_aim);
  if (aim_len2 > 1.0f) p.aim = to_aim * (1.0f / std::sqrt(aim_len2));

  update_heat(input.fire);
  // While fire is held, the storm around the ship cancels what comes close, from any side:
  // a player who holds fire is hard to kill; one who stops is not.
  aura_radius_ = input.fire ? kAuraPerDoubling * p.heat : 0.0f;
  if (input.fire) {
    // Escalation: the rate and the bullets per shot each grow with the square root of the
    // multiplier, so bullets per second grow with the multiplier itself.
    const WeaponConfig& w = scenario_.weapon;
    const float root = std::sqrt(heat_multiplier());
    const int per_shot = std::max(1, static_cast<int>(std::lround(static_cast<float>(w.bullets_per_shot) * root)));
    const float rate = std::min(w.shots_per_second * applied_.stress * root,
                                kMaxPlayerBulletsPerSecond / static_cast<float>(per_shot));
    p.fire_charge += rate * kStepSeconds;
    const float shots = std::floor(p.fire_charge);
    p.fire_charge -= shots;
    fire_weapon(shots, per_shot);
  } else {
    p.fire_charge = 1;  // ready: the next press fires at once
  }
  emit_trail();
}

// Standing still is a risk (CampingConfig): past the grace, chargers come at the spot the
// player stands on, faster the longer the player stays. Leaving the circle resets the clock.
void Simulation::update_camping() {
  const CampingConfig& c = scenario_.camping;
  Player& p = player_;
  if (!p.alive || game_over_ || c.chargers_per_second <= 0) return;
  if (length_squared(p.pos - p.camp_anchor) > c.radius * c.radius) {
    p.camp_anchor = p.pos;
    p.camp_seconds = 0;
    p.charger_owed = 0;
    return;
  }
  p.camp_seconds += kStepSeconds;
  const float over = p.camp_seconds - c.grace_seconds;
  if (over < 0) return;
  p.charger_owed += (c.chargers_per_second + c.ramp_per_second * over) * kStepSeconds;
  // The first comes as the grace ends; then one whenever a whole one is owed.
  if (over < kStepSeconds) p.charger_owed = std::max(p.charger_owed, 1.0f);
  while (p.charger_owed >= 1) {
    p.charger_owed -= 1;
    if (!enemies_.spawn_charger(charger_entry(chargers_++), p.pos, c.charger_speed)) break;  // store full: they wait
  }
}

// Where the n-th charger enters: half from below, a quarter from each side low down, where a
// player aiming up does not look. Keyed by n, so it is the same in every storage mode.
Vec2 Simulation::charger_entry(std::uint64_t n) const {
  const float w = scenario_.world_width, h = scenario_.world_height;
  const float edge = random_unit(seed_, n, Purpose::charger_edge);
  const float along = random_unit(seed_, n, Purpose::charger_along);
  constexpr float kOutside = 30;
  if (edge < 0.5f) return {along * w, -kOutside};
  return {edge < 0.75f ? -kOutside : w + kOutside, along * h * 0.6f};
}

// Chargers that touch a vulnerable ship are spent (a small blast); the caller takes one life
// however many struck. A shielded ship lets them fly on.
std::uint32_t Simulation::ram_ship(bool vulnerable) {
  if (!vulnerable) return 0;
  std::uint32_t rams = 0;
  for (Enemy* e : enemies_.by_seq()) {
    if (!charges(*e) || e->gone || e->hp <= 0) continue;
    const float reach = kPlayerRadius + e->radius;
    if (length_squared(e->pos - player_.pos) > reach * reach) continue;
    e->gone = true;
    const BlastSpec& blast = kind_spec(e->wave.kind).death_blast;
    explode(e->pos, blast_particles(blast, applied_.particles_per_explosion), blast.scale);
    ++rams;
  }
  return rams;
}

void Simulation::update_heat(bool firing) {
  const EscalationConfig& e = scenario_.escalation;
  const float top = std::log2(std::max(1.0f, e.max_multiplier));
  Player& p = player_;
  if (firing) {
    p.heat = std::min(top, p.heat + kStepSeconds / e.doubling_seconds);
  } else {
    p.heat = std::max(0.0f, p.heat - kStepSeconds * top / e.cool_seconds);
  }
}

float Simulation::heat_multiplier() const noexcept { return std::exp2(player_.heat); }

void Simulation::emit_trail() {
  Player& p = player_;
  // The engine trail burns hotter with the escalation: more particles, a wider plume.
  const float heat = heat_multiplier();
  p.trail_charge += std::min(applied_.trail_per_second * heat, kMaxTrailPerSecond) * kStepSeconds;
  const float trail = std::floor(p.trail_charge);
  p.trail_charge -= trail;
  if (trail > 0) {
    BurstSpec spec = kTrail;
    spec.count = static_cast<int>(trail);
    spec.direction = -kPi / 2;
    spec.cone = std::min(2 * kPi, kTrail.cone * (1 + player_.heat * 0.25f));
    spec.life_min = kTrail.life_min * (1 + player_.heat * 0.05f);  // and a longer one
    spec.life_max = kTrail.life_max * (1 + player_.heat * 0.05f);
    particles_.burst(spec, p.pos + Vec2{0, -14});
  }
}

void Simulation::fire_weapon(float shots, int count) {
  const WeaponConfig& w = scenario_.weapon;
  // Stress and escalation widen the fan with the square root of the rate: a storm sprays the screen.
  const float rate = std::max(1.0f, applied_.stress) * heat_multiplier();
  const float spread = std::min(2 * kPi, w.spread_degrees * kDegrees * std::sqrt(rate));
  const float centre = std::atan2(player_.aim.y, player_.aim.x);
  const auto n = static_cast<int>(shots);
  const HomingConfig& homing = scenario_.homing;
  for (int shot = 0; shot < n; ++shot) {
    // Shots due in one step leave at evenly spaced moments within it, not in one clump.
    const float lead = static_cast<float>(shot) / static_cast<float>(n);
    for (int i = 0; i < count; ++i) {
      const std::uint64_t seq = player_bullets_.next_seq();
      const float slot = count == 1 ? 0.0f : static_cast<float>(i) / static_cast<float>(count - 1) - 0.5f;
      const float jitter = (random_unit(seed_, seq, Purpose::bullet_spread) - 0.5f) / static_cast<float>(count);
      const float angle = centre + (slot + jitter) * spread;
      const float speed = w.bullet_speed * random_range(seed_, seq, Purpose::bullet_speed, 0.96f, 1.04f);
      const Vec2 vel = from_angle(angle, speed);
      const bool homes = homing.share > 0 && homing_live_ < static_cast<std::uint64_t>(homing.max_live) &&
                         random_unit(seed_, seq, Purpose::homing_shot) < homing.share;
      const engine::PoolHandle shot_handle =
          player_bullets_.fire(player_.pos + vel * (kStepSeconds * lead), vel, kPlayerBulletRadius,
                               homes ? kHomingColor : kShotColor, w.damage);
      if (!homes) continue;
      if (Bullet* fired = player_bullets_.store().get(shot_handle)) {  // null when refused at the cap
        fired->target = kSeekingTarget;                                // locks on in its first step
        ++homing_live_;
      }
    }
  }
}

void Simulation::resolve_hits() {
  std::sort(hits_.begin(), hits_.end(), [](const Hit& a, const Hit& b) { return a.bullet_seq < b.bullet_seq; });
  const auto& enemies = enemies_.by_seq();
  const int hit_sparks = applied_.sparks_per_hit > 0 ? spark_count(applied_.sparks_per_hit) : 0;  // once per step
  for (const Hit& hit : hits_) {
    Enemy& e = *enemies[hit.enemy];
    const bool was_alive = e.hp > 0;
    e.hp -= hit.damage;
    e.hit_flash = 0.06f;
    ++hits_total_;
    if (hit_sparks > 0) {
      BurstSpec spec = kHitSparks;
      spec.count = hit_sparks;
      spec.direction = std::atan2(-hit.vel.y, -hit.vel.x);  // back towards the shooter
      particles_.burst(spec, hit.pos);
    }
    if (was_alive && e.hp <= 0) kill_enemy(e);
  }
}

int Simulation::spark_count(int base) const noexcept {
  // Impacts spray more as the weapon escalates (x1 up to x16 at a 4096x multiplier).
  return static_cast<int>(std::lround(static_cast<float>(base) * std::max(1.0f, std::sqrt(heat_multiplier()) / 4)));
}

void Simulation::resolve_cancels() {
  // In bullet-seq order, so the sparks get the same sequence numbers in every storage mode.
  std::sort(cancels_.begin(), cancels_.end(),
            [](const Cancel& a, const Cancel& b) { return a.bullet_seq < b.bullet_seq; });
  cancels_total_ += cancels_.size();
  const int sparks = spark_count(scenario_.escalation.sparks_per_cancel);
  if (sparks <= 0) return;
  BurstSpec spec = kCancelSparks;
  spec.count = sparks;
  for (const Cancel& c : cancels_) {
    spec.direction = std::atan2(c.vel.y, c.vel.x);
    particles_.burst(spec, c.pos);
  }
}

void Simulation::kill_enemy(const Enemy& e) {
  const EnemyKindSpec& kind = kind_spec(e.wave.kind);
  // The score freezes with the player: shots still in flight after the last life was lost
  // still blow enemies up, but earn nothing, so HUD, panel, report and best score agree.
  if (!game_over_) {
    ++kills_;
    score_ += kind.score * (1 + static_cast<std::int64_t>(enemies_.loop_level()));
  }
  explode(e.pos, blast_particles(kind.death_blast, applied_.particles_per_explosion), kind.death_blast.scale);
}

void Simulation::explode(Vec2 at, int count, float scale) {
  const float life = scenario_.particles.life_seconds;
  int shared = 0;  // particles the share layers took: the rest layer gets what is left
  for (const ExplosionLayer& layer : kExplosionLayers) {
    particles_.burst(layer_burst(layer, count, scale, life, shared), at);
  }
}

void Simulation::lose_life() {
  ++deaths_;
  player_.lives -= 1;
  player_.shield = scenario_.player.respawn_shield_seconds;
  if (player_.lives > 0) {
    explode(player_.pos, blast_particles(kLifeLostBlast, applied_.particles_per_explosion), kLifeLostBlast.scale);
    return;
  }
  player_.lives = 0;
  player_.alive = false;
  game_over_ = true;
  game_over_frame_ = frame_;
  game_over_time_ = 0;
  explode(player_.pos, blast_particles(kGameOverBlast, applied_.particles_per_explosion), kGameOverBlast.scale);
}

StoreStats Simulation::pool_stats(PoolId id) const {
  switch (id) {
    case PoolId::bullets:
      return player_bullets_.store().stats();
    case PoolId::enemy_bullets:
      return enemy_bullets_.store().stats();
    case PoolId::particles:
      return particles_.store().stats();
    case PoolId::enemies:
      return enemies_.store().stats();
  }
  return {};
}

void Simulation::refresh_stats() {
  ++stats_builds_;
  SimStats& s = stats_;
  // What this step did to the pools is the change since the last step's stats: every reader
  // (the step loop's frame tag, the overlay's recorder) takes it from here, not from shadows.
  const std::uint64_t growths_before = s.growth_events, rebuilds_before = s.rebuilds;
  const double update_total = s.update_ms_total, release_total = s.release_ms_total,
               collision_total = s.collision_ms_total;
  s = SimStats{};
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    s.pools[i] = pool_stats(static_cast<PoolId>(i));
    s.growth_events += s.pools[i].growth_events;
    s.rebuilds += s.pools[i].rebuilds;
  }
  s.score = score_;
  s.lives = player_.lives;
  s.wave = enemies_.waves_started();
  s.loop_level = enemies_.loop_level();
  s.game_over = game_over_;
  s.game_over_frame = game_over_frame_;
  s.frame = frame_;
  s.kills = kills_;
  s.hits = hits_total_;
  s.deaths = deaths_;
  s.restarts = restarts_;
  s.cancels = cancels_total_;
  s.stale_refusals = stale_refusals_;
  s.homing_live = homing_live_;
  s.threads = static_cast<std::uint32_t>(team_.active());
  s.threads_auto = applied_.threads == kAutoThreads;
  s.threads_ratio = s.threads_auto ? thread_choice_.ratio() : 0;
  s.threads_measured = thread_choice_.measured_threads();
  s.threads_probing = s.threads_auto && thread_choice_.probing();
  for (const PoolId id : {PoolId::bullets, PoolId::enemy_bullets, PoolId::particles}) {  // the team's passes
    s.update_ms += s.pools[static_cast<std::size_t>(id)].update_ms;
    s.release_ms += s.pools[static_cast<std::size_t>(id)].release_ms;
  }
  s.collision_ms = collision_ms_;
  s.update_ms_total = update_total + s.update_ms;
  s.release_ms_total = release_total + s.release_ms;
  s.collision_ms_total = collision_total + s.collision_ms;
  s.heat_multiplier = heat_multiplier();
  const float top = std::log2(std::max(1.0f, scenario_.escalation.max_multiplier));
  s.heat_fraction = top > 0 ? player_.heat / top : 0.0f;
  s.camping_seconds = player_.camp_seconds;
  s.chargers = chargers_;
  s.switched = switched_;
  s.pooling = applied_.pooling;
  s.grew = s.growth_events != growths_before;
  s.rebuilt = s.rebuilds != rebuilds_before;
}

}  // namespace game
