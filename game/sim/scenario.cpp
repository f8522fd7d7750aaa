#include "sim/scenario.hpp"

#include "sim/enemy_kinds.hpp"
#include "sim/json_reader.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <sstream>
#include <utility>

namespace game {

const char* pool_name(PoolId id) noexcept {
  switch (id) {
    case PoolId::bullets:
      return "bullets";
    case PoolId::enemy_bullets:
      return "enemy_bullets";
    case PoolId::particles:
      return "particles";
    case PoolId::enemies:
      return "enemies";
  }
  return "?";
}

namespace {

using detail::ObjectReader;
using detail::shown;
using nlohmann::json;

void read_pool(ObjectReader& parent, const char* key, PoolConfig& pool) {
  const json* v = parent.find(key);
  if (!v) return;
  ObjectReader r(*v, parent.key_path(key));
  r.integer("initial_capacity", pool.initial_capacity, std::size_t{1}, kPoolCapacityCap);
  r.integer("growth_step", pool.growth_step, std::size_t{0}, kPoolCapacityCap);
  r.integer("max_capacity", pool.max_capacity, std::size_t{1}, kPoolCapacityCap);
  // The pool's own limits (growth_policy.hpp); 0 asks for its automatic size.
  r.integer("page_slots", pool.page_slots, std::size_t{0}, engine::max_page_slots);
  r.finish();
  if (pool.page_slots != 0 &&
      (pool.page_slots < engine::min_page_slots || (pool.page_slots & (pool.page_slots - 1)) != 0)) {
    r.fail("page_slots", "must be 0 (automatic) or a power of two >= " + std::to_string(engine::min_page_slots));
  }
  if (pool.initial_capacity > pool.max_capacity) {
    r.fail("initial_capacity", "must not exceed max_capacity (" + std::to_string(pool.max_capacity) + ")");
  }
}

WaveConfig read_wave(const json& v, const std::string& path) {
  WaveConfig w;
  ObjectReader r(v, path);
  r.number("delay", w.delay, 0.0f, 600.0f);
  r.choice("kind", w.kind, kEnemyKinds);
  r.integer("count", w.count, 1, 10000);
  r.choice("pattern", w.pattern, kFirePatterns);
  r.integer("hp", w.hp, 1, 1000000);
  r.number("fire_interval", w.fire_interval, 0.01f, 60.0f);
  r.integer("bullets_per_volley", w.bullets_per_volley, 1, 1000);
  r.number("bullet_speed", w.bullet_speed, 1.0f, 5000.0f);
  r.number("spread_degrees", w.spread_degrees, 0.0f, 360.0f);
  r.number("stay_seconds", w.stay_seconds, 0.5f, 3600.0f);
  r.finish();
  return w;
}

Scenario read_scenario(const json& root, const std::string& name) {
  Scenario s;
  s.name = name;
  ObjectReader r(root, "");
  r.text("description");
  r.integer("seed", s.seed, std::uint64_t{0}, std::numeric_limits<std::uint64_t>::max());
  if (const json* v = r.find("world")) {
    ObjectReader w(*v, "world");
    w.number("width", s.world_width, 320.0f, 8192.0f);
    w.number("height", s.world_height, 240.0f, 8192.0f);
    w.finish();
  }
  if (const json* v = r.find("player")) {
    ObjectReader p(*v, "player");
    p.integer("lives", s.player.lives, 1, 99);
    p.number("speed", s.player.speed, 10.0f, 5000.0f);
    p.boolean("invulnerable", s.player.invulnerable);
    p.number("respawn_shield_seconds", s.player.respawn_shield_seconds, 0.0f, 30.0f);
    p.finish();
  }
  if (const json* v = r.find("weapon")) {
    ObjectReader w(*v, "weapon");
    w.number("shots_per_second", s.weapon.shots_per_second, 0.1f, 1000.0f);
    w.integer("bullets_per_shot", s.weapon.bullets_per_shot, 1, 1000);
    w.number("spread_degrees", s.weapon.spread_degrees, 0.0f, 360.0f);
    w.number("bullet_speed", s.weapon.bullet_speed, 10.0f, 10000.0f);
    w.integer("damage", s.weapon.damage, 1, 1000000);
    w.finish();
  }
  if (const json* v = r.find("escalation")) {
    ObjectReader e(*v, "escalation");
    e.number("doubling_seconds", s.escalation.doubling_seconds, 0.05f, 60.0f);
    e.number("max_multiplier", s.escalation.max_multiplier, 1.0f, 65536.0f);
    e.number("cool_seconds", s.escalation.cool_seconds, 0.05f, 60.0f);
    e.integer("sparks_per_cancel", s.escalation.sparks_per_cancel, 0, 100);
    e.boolean("cancels_enemy_bullets", s.escalation.cancels_enemy_bullets);
    e.finish();
  }
  if (const json* v = r.find("homing")) {
    ObjectReader h(*v, "homing");
    h.number("share", s.homing.share, 0.0f, 1.0f);
    h.number("turn_rate", s.homing.turn_rate, 0.0f, 100.0f);
    h.number("seek_radius", s.homing.seek_radius, 1.0f, 8192.0f);
    h.integer("max_live", s.homing.max_live, 0, 100000);
    h.finish();
  }
  if (const json* v = r.find("camping")) {
    ObjectReader c(*v, "camping");
    c.number("grace_seconds", s.camping.grace_seconds, 0.0f, 3600.0f);
    c.number("radius", s.camping.radius, 0.0f, 8192.0f);
    c.number("chargers_per_second", s.camping.chargers_per_second, 0.0f, 100.0f);
    c.number("ramp_per_second", s.camping.ramp_per_second, 0.0f, 10.0f);
    c.number("charger_speed", s.camping.charger_speed, 10.0f, 5000.0f);
    c.finish();
  }
  r.number("stress", s.stress, 0.01f, 1000.0f);
  r.number("enemy_density", s.enemy_density, 0.0f, 100.0f);
  if (const json* v = r.find("particles")) {
    ObjectReader p(*v, "particles");
    p.integer("per_explosion", s.particles.per_explosion, 0, 100000);
    p.integer("per_hit", s.particles.per_hit, 0, 1000);
    p.number("trail_per_second", s.particles.trail_per_second, 0.0f, 100000.0f);
    p.number("life_seconds", s.particles.life_seconds, 0.05f, 30.0f);
    p.finish();
  }
  r.boolean("pooling", s.pooling);
  detail::read_storage(r, "storage", s.storage);
  detail::read_walk(r, "walk", s.walk);
  if (const json* v = r.find("pools")) {
    ObjectReader p(*v, "pools");
    for (std::size_t i = 0; i < kPoolCount; ++i) read_pool(p, pool_name(static_cast<PoolId>(i)), s.pools[i]);
    p.finish();
  }
  const json* waves = r.find("waves");
  if (!waves) r.fail("waves", "is required (an array of 1..1000 waves)");
  if (!waves->is_array() || waves->empty() || waves->size() > 1000) {
    r.fail("waves", "must be an array of 1..1000 waves (got " + shown(*waves) + ")");
  }
  for (std::size_t i = 0; i < waves->size(); ++i) {
    s.waves.push_back(read_wave((*waves)[i], "waves[" + std::to_string(i) + "]"));
  }
  r.boolean("loop_waves", s.loop_waves);
  r.number("loop_ramp", s.loop_ramp, 0.0f, 10.0f);
  r.finish();

  // Each value can be sane while their product is absurd: a billion bullets a second.
  const double bullets_per_second =
      static_cast<double>(s.weapon.shots_per_second) * s.stress * s.weapon.bullets_per_shot;
  if (bullets_per_second > 1e6) {
    r.fail("stress", "weapon.shots_per_second x stress x weapon.bullets_per_shot is " +
                         std::to_string(static_cast<long long>(bullets_per_second)) +
                         " bullets per second; the limit is 1000000");
  }
  return s;
}

ScenarioResult failure(const std::string& name, const std::string& reason) {
  return {std::nullopt, "scenario '" + name + "': " + reason};
}

}  // namespace

ScenarioResult parse_scenario(const std::string& text, const std::string& name) {
  ScenarioResult result;
  const std::string error =
      detail::read_json_document(text, [&](const json& root) { result.scenario = read_scenario(root, name); });
  if (!error.empty()) return failure(name, error);
  return result;
}

ScenarioResult load_scenario(const std::string& path) {
  std::string text;
  if (std::string error = detail::read_small_file(path, kScenarioMaxBytes, text); !error.empty()) {
    return failure(path, error);
  }
  return parse_scenario(text, path);
}

}  // namespace game
