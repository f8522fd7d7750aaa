// Simulation::state_hash: the canonical serialization every determinism test compares.
// Objects are visited in spawn order (sorted by seq), so pooled, heap, contiguous and
// stable storage, which iterate in different orders, hash the same game the same way.
#include "sim/simulation.hpp"

#include "sim/enemy_kinds.hpp"
#include "sim/state_hasher.hpp"

#include <algorithm>
#include <vector>

namespace game {

namespace {

template <class T>
std::vector<const T*> in_spawn_order(const ObjectStore<T>& store) {
  std::vector<const T*> objects;
  objects.reserve(store.size());
  store.for_each([&](const T& object) { objects.push_back(&object); });
  std::sort(objects.begin(), objects.end(), [](const T* a, const T* b) { return a->seq < b->seq; });
  return objects;
}

void add(StateHasher& h, Vec2 v) {
  h.add_f32(v.x);
  h.add_f32(v.y);
}

void add_bullets(StateHasher& h, const ObjectStore<Bullet>& store) {
  const auto bullets = in_spawn_order(store);
  h.add_u64(bullets.size());
  for (const Bullet* b : bullets) {
    h.add_u64(b->seq);
    add(h, b->pos);
    add(h, b->prev);
    add(h, b->vel);
    h.add_f32(b->radius);
    h.add_f32(b->age);
    h.add_u32(b->color);
    h.add_u32(static_cast<std::uint32_t>(b->damage));
  }
}

void add_particles(StateHasher& h, const ObjectStore<Particle>& store) {
  const auto particles = in_spawn_order(store);
  h.add_u64(particles.size());
  for (const Particle* p : particles) {
    h.add_u64(p->seq);
    add(h, p->pos);
    add(h, p->vel);
    h.add_f32(p->life);
    h.add_f32(p->max_life);
    h.add_f32(p->size);
    h.add_f32(p->damping);
    h.add_u32(p->color);
    h.add_u32(static_cast<std::uint32_t>(p->kind));
  }
}

void add_enemies(StateHasher& h, const ObjectStore<Enemy>& store) {
  const auto enemies = in_spawn_order(store);
  h.add_u64(enemies.size());
  for (const Enemy* e : enemies) {
    h.add_u64(e->seq);
    add(h, e->pos);
    add(h, e->prev);
    add(h, e->station);
    h.add_f32(e->radius);
    h.add_f32(e->age);
    h.add_f32(e->phase);
    h.add_f32(e->fire_timer);
    h.add_f32(e->volley_angle);
    h.add_f32(e->hit_flash);
    h.add_u32(static_cast<std::uint32_t>(e->hp));
    h.add_u32(static_cast<std::uint32_t>(e->max_hp));
    h.add_u32(e->wave_number);
    h.add_bool(e->leaving);
    h.add_bool(e->gone);
    h.add_u32(static_cast<std::uint32_t>(e->wave.kind));
    h.add_u32(static_cast<std::uint32_t>(e->wave.pattern));
    h.add_u32(static_cast<std::uint32_t>(e->wave.bullets_per_volley));
    h.add_f32(e->wave.fire_interval);
    h.add_f32(e->wave.bullet_speed);
    h.add_f32(e->wave.spread_degrees);
    h.add_f32(e->wave.stay_seconds);
    if (charges(*e)) add(h, e->vel);  // chargers only: the hashes of runs that drew none stay as pinned
  }
}

}  // namespace

std::uint64_t Simulation::state_hash() const {
  StateHasher h;
  h.add_u64(frame_);
  h.add_f32(game_time_);
  h.add_f32(game_over_time_);
  h.add_bool(game_over_);
  h.add_bool(false);  // where the simulation's own pause flag was: kept, so hashes pinned before it went still match
  h.add_u64(static_cast<std::uint64_t>(score_));
  h.add_u64(kills_);
  h.add_u64(hits_total_);
  h.add_u64(deaths_);
  add(h, player_.pos);
  add(h, player_.prev);
  add(h, player_.aim);
  h.add_f32(player_.fire_charge);
  h.add_f32(player_.trail_charge);
  h.add_f32(player_.shield);
  h.add_f32(player_.heat);
  h.add_u64(cancels_total_);
  h.add_u32(static_cast<std::uint32_t>(player_.lives));
  h.add_bool(player_.alive);
  h.add_u32(enemies_.waves_started());
  h.add_u32(enemies_.loop_level());
  h.add_f32(enemies_.wave_clock());
  h.add_u64(enemies_.next_wave());
  h.add_u64(player_bullets_.next_seq());
  h.add_u64(enemy_bullets_.next_seq());
  h.add_u64(particles_.next_seq());
  h.add_u64(enemies_.next_seq());
  add_bullets(h, player_bullets_.store());
  add_bullets(h, enemy_bullets_.store());
  add_particles(h, particles_.store());
  add_enemies(h, enemies_.store());
  // The camping clock (CampingConfig) changes nothing until it has drawn a charger; from then
  // on it is hashed. Before, a run that never camped past the grace keeps its pinned hash.
  if (chargers_ > 0) {
    h.add_u64(chargers_);
    add(h, player_.camp_anchor);
    h.add_f32(player_.camp_seconds);
    h.add_f32(player_.charger_owed);
  }
  return h.value();
}

}  // namespace game
