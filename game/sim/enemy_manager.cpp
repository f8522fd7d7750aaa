#include "sim/enemy_manager.hpp"

#include "sim/enemy_kinds.hpp"
#include "sim/rng.hpp"

#include <algorithm>
#include <cmath>

namespace game {

namespace {

// One axis of where an enemy wants to be relative to its station (enemy_kinds.hpp's SwayAxis):
// the same operations in the same order as the formula per kind it replaced.
float sway_axis(const SwayAxis& axis, float age, float phase, float world_width) {
  if (axis.wave == SwayWave::none) return 0.0f;
  float angle = age * axis.rate;
  if (axis.phase == SwayPhase::own) angle = angle + phase;
  float offset = axis.wave == SwayWave::cos ? std::cos(angle) : std::sin(angle);
  if (axis.units == SwayUnits::width) offset = offset * world_width;
  return offset * axis.amplitude;
}

// Where an enemy wants to be relative to its station, by kind: each kind moves its own way.
Vec2 sway(const Enemy& e, float world_width) {
  const EnemyKindSpec& kind = kind_spec(e.wave.kind);
  return {sway_axis(kind.sway_x, e.age, e.phase, world_width), sway_axis(kind.sway_y, e.age, e.phase, world_width)};
}

// A velocity from `from` towards `to` at `speed`; straight down where the two coincide.
Vec2 towards(Vec2 from, Vec2 to, float speed) {
  const Vec2 d = to - from;
  const float len2 = length_squared(d);
  return len2 > 1e-6f ? d * (speed / std::sqrt(len2)) : Vec2{0, -speed};
}

}  // namespace

EnemyManager::EnemyManager(const engine::GrowthPolicy& policy, bool pooled, std::uint64_t seed,
                           const Scenario& scenario, float dt)
    : store_(policy, pooled), seed_(seed), scenario_(&scenario), approach_(1.0f - std::exp(-2.5f * dt)) {
  fit_buffers(1, dt);
  restart();
}

void EnemyManager::restart() {
  store_.clear();
  by_seq_.clear();
  handles_by_seq_.clear();
  next_wave_ = 0;
  waves_started_ = 0;
  loop_level_ = 0;
  wave_clock_ = scenario_->waves.front().delay;
}

void EnemyManager::spawn_due_waves(float dt, float density) {
  const auto& waves = scenario_->waves;
  wave_clock_ -= dt;
  while (wave_clock_ <= 0 && next_wave_ < waves.size()) {
    spawn_wave(waves[next_wave_], density);
    ++waves_started_;
    if (++next_wave_ == waves.size() && scenario_->loop_waves) {
      next_wave_ = 0;
      ++loop_level_;
    }
    if (next_wave_ < waves.size()) wave_clock_ += std::max(waves[next_wave_].delay, dt);
  }
}

// Each pass through the wave list is tougher: more hp, faster volleys, faster bullets.
WaveConfig EnemyManager::at_loop_level(const WaveConfig& config) const noexcept {
  const float level = static_cast<float>(loop_level_) * scenario_->loop_ramp;
  WaveConfig wave = config;
  wave.hp = static_cast<std::int32_t>(static_cast<float>(config.hp) * (1.0f + 0.5f * level));
  wave.fire_interval = config.fire_interval / (1.0f + 0.25f * level);
  wave.bullet_speed = config.bullet_speed * (1.0f + 0.1f * level);
  return wave;
}

void EnemyManager::spawn_wave(const WaveConfig& config, float density) {
  const int count = static_cast<int>(std::lround(static_cast<float>(config.count) * density));
  const WaveConfig wave = at_loop_level(config);
  const float width = scenario_->world_width;
  const float height = scenario_->world_height;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t seq = next_seq_++;
    Enemy e;
    e.seq = seq;
    e.wave = wave;
    e.wave_number = waves_started_ + 1;
    e.radius = kind_spec(wave.kind).radius;
    e.hp = e.max_hp = std::max(1, wave.hp);
    // Stations spread evenly across the width, jittered, in the upper part of the field.
    const float slot = (static_cast<float>(i) + 0.5f) / static_cast<float>(count);
    const float jitter = random_range(seed_, seq, Purpose::enemy_spawn_x, -0.35f, 0.35f) / static_cast<float>(count);
    e.station.x = std::clamp((slot + jitter) * width, e.radius, width - e.radius);
    e.station.y = height * random_range(seed_, seq, Purpose::enemy_station_y, 0.55f, 0.9f);
    e.pos = e.prev = {e.station.x, height + e.radius + random_range(seed_, seq, Purpose::enemy_spawn_y, 20, 140)};
    e.phase = random_range(seed_, seq, Purpose::enemy_phase, 0, 2 * kPi);
    e.fire_timer = random_range(seed_, seq, Purpose::enemy_fire_delay, 0.6f, 0.6f + wave.fire_interval);
    if (store_.spawn_handle(e).is_null()) break;  // at capacity: the rest of the wave cannot fit either
  }
}

bool EnemyManager::spawn_charger(Vec2 at, Vec2 target, float speed) {
  Enemy e;
  e.seq = next_seq_++;
  e.wave.kind = EnemyKind::charger;
  e.wave.bullet_speed = speed;
  e.wave.stay_seconds = 3600;  // it leaves by flying off the field, not by its stay
  e.wave_number = waves_started_;
  e.radius = kind_spec(EnemyKind::charger).radius;
  e.hp = e.max_hp = 1;
  e.pos = e.prev = e.station = at;
  e.vel = towards(at, target, speed);
  return !store_.spawn_handle(e).is_null();
}

void EnemyManager::fly_charger(Enemy& e, float dt, const Vec2* aim_at) const {
  // One from a wave list has no line yet: it takes one at the ship (straight down if none),
  // at its wave's bullet speed.
  if (e.vel.x == 0 && e.vel.y == 0) e.vel = towards(e.pos, aim_at ? *aim_at : e.pos, e.wave.bullet_speed);
  e.pos = e.pos + e.vel * dt;
  // Gone once well outside the field and flying away from it (it entered from outside).
  const float margin = e.radius + 80.0f;
  const float width = scenario_->world_width;
  const float height = scenario_->world_height;
  if ((e.pos.x < -margin && e.vel.x <= 0) || (e.pos.x > width + margin && e.vel.x >= 0) ||
      (e.pos.y < -margin && e.vel.y <= 0) || (e.pos.y > height + margin && e.vel.y >= 0)) {
    e.gone = true;
  }
}

void EnemyManager::sort_by_seq() {
  sorting_.clear();  // fit_buffers() made room for every enemy the store holds
  store_.for_each_handle([this](engine::PoolHandle handle, Enemy& e) { sorting_.push_back({&e, handle}); });
  std::sort(sorting_.begin(), sorting_.end(),
            [](const Entry& a, const Entry& b) { return a.enemy->seq < b.enemy->seq; });
  by_seq_.clear();
  handles_by_seq_.clear();
  for (const Entry& entry : sorting_) {
    by_seq_.push_back(entry.enemy);
    handles_by_seq_.push_back(entry.handle);
  }
}

void EnemyManager::fit_buffers(std::size_t chunks, float dt) {
  const std::size_t capacity = store_.capacity();
  sorting_.reserve(capacity);
  by_seq_.reserve(capacity);
  handles_by_seq_.reserve(capacity);
  if (shot_buffers_.size() < chunks) shot_buffers_.resize(chunks);
  // Chunk 0 holds every enemy when the pass runs inline, any other chunk at most half of them:
  // so the chunk count may change from step to step without an allocation.
  const std::size_t most_shots = most_shots_per_enemy(dt);
  for (std::size_t k = 0; k < shot_buffers_.size(); ++k) {
    shot_buffers_[k].shots.reserve(((k == 0 ? capacity : capacity / 2) + 1) * most_shots);
  }
}

// A chunk's shot buffer holds what its enemies fire in one step: reserved for the most any
// enemy can fire (a volley per fire interval at this loop level, one more for the carry), so
// a step allocates only when the enemy store grew or the waves got faster.
std::size_t EnemyManager::most_shots_per_enemy(float dt) const noexcept {
  std::size_t most = 1;
  for (const WaveConfig& wave : scenario_->waves) {
    const float interval = at_loop_level(wave).fire_interval;  // as spawn_wave gives its enemies
    const auto volleys = interval > 0 ? static_cast<std::size_t>(dt / interval) + 1 : std::size_t{1};
    most = std::max(most, volleys * static_cast<std::size_t>(std::max(1, wave.bullets_per_volley)));
  }
  return most;
}

void EnemyManager::update(engine::WorkerTeam& team, float dt, const Vec2* aim_at, BulletManager& enemy_bullets) {
  const std::size_t count = by_seq_.size();
  const std::size_t chunks = ObjectStore<Enemy>::chunks_for(count, team);  // few enemies: one chunk, inline
  if (shot_buffers_.size() < chunks) fit_buffers(team.size(), dt);         // allocates only when the threads change
  for (ShotBuffer& buffer : shot_buffers_) buffer.shots.clear();
  team(chunks, [&](std::size_t k) {
    std::vector<Shot>& shots = shot_buffers_[k].shots;
    for (std::size_t i = count * k / chunks; i < count * (k + 1) / chunks; ++i) {
      move_and_aim(*by_seq_[i], dt, aim_at, shots);
    }
  });
  // Fired in chunk order, so in by_seq() order: shot i is in the first buffer whose shots reach past i.
  std::size_t shots = 0;
  for (ShotBuffer& buffer : shot_buffers_) {
    buffer.first = shots;
    shots += buffer.shots.size();
  }
  enemy_bullets.fire_chunked(shots, team, 4.0f, 1, [this](std::size_t i) noexcept -> const Shot& {
    std::size_t k = 0;
    while (i >= shot_buffers_[k].first + shot_buffers_[k].shots.size()) ++k;
    return shot_buffers_[k].shots[i - shot_buffers_[k].first];
  });
}

void EnemyManager::move_and_aim(Enemy& e, float dt, const Vec2* aim_at, std::vector<Shot>& shots) const {
  const float width = scenario_->world_width;
  const float height = scenario_->world_height;
  e.prev = e.pos;
  e.age += dt;
  e.hit_flash = std::max(0.0f, e.hit_flash - dt);
  if (charges(e)) {
    fly_charger(e, dt, aim_at);
    return;
  }
  if (!e.leaving && e.age > e.wave.stay_seconds) e.leaving = true;
  if (e.leaving) e.station.y += 150.0f * dt;
  const Vec2 target = e.station + sway(e, width);
  e.pos = e.pos + (target - e.pos) * approach_;
  if (e.leaving && e.pos.y > height + e.radius + 60.0f) {
    e.gone = true;
    return;
  }
  // Only enemies on screen fire, so nothing shoots from beyond the edge; and nobody fires
  // at a ship that is gone (game over: nothing spawns while the player is dead).
  if (e.pos.y > height - e.radius * 0.5f || aim_at == nullptr) return;
  e.fire_timer -= dt;
  while (e.fire_timer <= 0) {
    aim_volley(e, aim_at, shots);
    e.fire_timer += e.wave.fire_interval;
  }
}

void EnemyManager::aim_volley(Enemy& e, const Vec2* aim_at, std::vector<Shot>& shots) const {
  const WaveConfig& w = e.wave;
  const int n = w.bullets_per_volley;
  const float spread = w.spread_degrees * kDegrees;
  const std::uint32_t color = pattern_spec(w.pattern).bullet_color;
  const auto shoot = [&](float angle) {
    const Vec2 dir = from_angle(angle, 1.0f);
    shots.push_back({e.pos + dir * e.radius, dir * w.bullet_speed, color});
  };
  switch (w.pattern) {
    case FirePattern::aimed: {
      const Vec2 to = aim_at ? *aim_at - e.pos : Vec2{0, -1};
      const float centre = std::atan2(to.y, to.x);
      for (int i = 0; i < n; ++i) {
        const float t = n == 1 ? 0.0f : static_cast<float>(i) / static_cast<float>(n - 1) - 0.5f;
        shoot(centre + t * spread);
      }
      break;
    }
    case FirePattern::radial:
    case FirePattern::spiral: {
      // A ring of n; radial rings alternate by half a gap so volleys interleave, spirals turn
      // by the spread each volley so the arms curl.
      const float gap = 2 * kPi / static_cast<float>(n);
      for (int i = 0; i < n; ++i) shoot(e.volley_angle + static_cast<float>(i) * gap);
      e.volley_angle += (w.pattern == FirePattern::radial ? gap * 0.5f : 0.0f) + spread;
      e.volley_angle = std::fmod(e.volley_angle, 2 * kPi);
      break;
    }
  }
}

void EnemyManager::sweep() {
  store_.update([](Enemy& e) { return e.hp > 0 && !e.gone; });
  by_seq_.clear();  // its pointers may dangle now
  handles_by_seq_.clear();
}

}  // namespace game
