// The game's Draw: reads the simulation's const view, writes engine::Sprite values; never
// changes the game, so rendering can run at any rate.
#include "app/sprite_list.hpp"

#include "sim/atlas_cells.hpp"
#include "sim/enemy_kinds.hpp"
#include "sim/rng.hpp"
#include "sim/simulation.hpp"

#include <engine/sprite_batch.hpp>

#include <algorithm>
#include <cmath>

namespace game {

namespace {

using namespace layer;  // the draw order, SpriteLayer (sprite_list.hpp)

constexpr float kOutlineScale = 1.35f;  // the outline: the same shape, larger, dark
constexpr std::uint32_t kOutlineColor = engine::rgba(0, 0, 0, 220);
constexpr float kCrosshairDistance = 150;  // world units ahead of the ship, along the aim

constexpr int kStars = 90;

engine::Sprite sprite(Vec2 pos, float w, float h, std::uint16_t cell, std::uint8_t layer, std::uint32_t color,
                      float rotation = 0, engine::BlendMode blend = engine::BlendMode::alpha) {
  engine::Sprite s;
  s.x = pos.x;
  s.y = pos.y;
  s.width = w;
  s.height = h;
  s.rotation = rotation;
  s.color = color;
  s.cell = cell;
  s.layer = layer;
  s.blend = blend;
  return s;
}

// Scales all four channels: right for additive blending (colour fades) and for alpha.
std::uint32_t faded(std::uint32_t color, float f) {
  std::uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    const auto c = static_cast<float>((color >> shift) & 0xffu) * f;
    out |= static_cast<std::uint32_t>(std::clamp(c, 0.0f, 255.0f)) << shift;
  }
  return out;
}

// Where sprites go: a plain vector (tests, tools) or the runtime's SpriteBatch.
struct VectorSink {
  std::vector<engine::Sprite>& v;
  void reserve(std::size_t extra) { v.reserve(v.size() + extra); }
  void push_back(const engine::Sprite& s) { v.push_back(s); }
};
struct BatchSink {
  engine::SpriteBatch& batch;
  void reserve(std::size_t extra) { batch.reserve(batch.size() + extra); }
  void push_back(const engine::Sprite& s) { batch.push(s); }
};

template <class Sink>
void emit_sprites(const Simulation& sim, Sink& out, float alpha) {
  alpha = std::clamp(alpha, 0.0f, 1.0f);
  out.reserve(kStars + 3 + sim.particles().store().size() + 2 * sim.enemies().store().size() +
              sim.player_bullets().store().size() + 2 * sim.enemy_bullets().store().size());
  const float w = sim.scenario().world_width;
  const float h = sim.scenario().world_height;
  const std::uint64_t seed = sim.seed();

  // Background: stars scrolling down at three depths (drawn from the seed, not stored).
  const float time = sim.game_time() - Simulation::kStepSeconds * (1 - alpha);
  for (int i = 0; i < kStars; ++i) {
    const auto id = static_cast<std::uint64_t>(i);
    const float depth = random_range(seed, id, Purpose::star_depth, 0.2f, 1.0f);
    const float x = random_unit(seed, id, Purpose::star_x) * w;
    float y = std::fmod(random_unit(seed, id, Purpose::star_y) * h - time * 60.0f * depth, h);
    if (y < 0) y += h;
    const auto bright = static_cast<std::uint8_t>(90 + 150 * depth);
    out.push_back(sprite({x, y}, 2 + 4 * depth, 2 + 4 * depth, atlas::star, background,
                         engine::rgba(bright, bright, 255, bright), 0, engine::BlendMode::additive));
  }

  sim.particles().store().for_each([&](const Particle& p) {
    const float f = std::clamp(p.life / p.max_life, 0.0f, 1.0f);
    const Vec2 at = lerp(previous_position(p, Simulation::kStepSeconds), p.pos, alpha);
    switch (p.kind) {
      case ParticleKind::spark: {
        const float len = p.size * (0.6f + 0.8f * f);
        out.push_back(sprite(at, len * 0.5f, len, atlas::spark, particles, faded(p.color, f),
                             turn_along(p.vel.x, p.vel.y), engine::BlendMode::additive));
        break;
      }
      case ParticleKind::smoke: {
        const float size = p.size * (1.0f + 1.5f * (1 - f));  // puffs grow as they fade
        out.push_back(
            sprite(at, size, size, atlas::smoke, particles, faded(p.color, f), 0, engine::BlendMode::additive));
        break;
      }
      case ParticleKind::trail: {
        const float size = p.size * (0.4f + 0.6f * f);
        out.push_back(sprite(at, size, size, atlas::smoke, trail, faded(p.color, f), 0, engine::BlendMode::additive));
        break;
      }
      case ParticleKind::flash: {
        const float size = p.size * (1.4f - 0.6f * f);
        out.push_back(
            sprite(at, size, size, atlas::explosion, particles, faded(p.color, f), 0, engine::BlendMode::additive));
        break;
      }
    }
  });

  sim.enemies().store().for_each([&](const Enemy& e) {
    const EnemyKindSpec& kind = kind_spec(e.wave.kind);
    const float size = e.radius * 2.4f;
    // A charger turns along its flight (its dart points up at rotation 0); the rest spin.
    const float turn = charges(e) ? turn_along(e.vel.x, e.vel.y) : e.age * kind.spin_per_second;
    const std::uint32_t color = e.hit_flash > 0 ? engine::rgba(255, 255, 255) : kind.color;
    const Vec2 at = lerp(e.prev, e.pos, alpha);
    out.push_back(
        sprite(at, size * kOutlineScale, size * kOutlineScale, kind.cell, enemy_outlines, kOutlineColor, turn));
    out.push_back(sprite(at, size, size, kind.cell, enemies, color, turn));
  });

  sim.enemy_bullets().store().for_each([&](const Bullet& b) {
    const float size = b.radius * 3.0f;
    const Vec2 at = lerp(b.prev, b.pos, alpha);
    out.push_back(sprite(at, size * kOutlineScale, size * kOutlineScale, atlas::enemy_bullet, enemy_bullet_outlines,
                         kOutlineColor));
    out.push_back(sprite(at, size, size, atlas::enemy_bullet, enemy_bullets, b.color));
  });
  sim.player_bullets().store().for_each([&](const Bullet& b) {
    const float width = b.homing() ? 11.0f : 7.0f;  // homing shots: amber (their colour) and wider, to see them curve
    out.push_back(sprite(lerp(b.prev, b.pos, alpha), width, 20, atlas::player_bullet, player_bullets, b.color,
                         turn_along(b.vel.x, b.vel.y)));
  });

  const Simulation::ShipView player = sim.ship();
  if (player.alive) {
    const Vec2 at = lerp(player.prev, player.pos, alpha);
    const float facing = turn_along(player.aim.x, player.aim.y);
    // While shielded the ship blinks (by step, so the picture is deterministic) in a bubble.
    const bool blink_off = player.shield > 0 && (sim.frame() / 4) % 2 == 1;
    if (!blink_off) out.push_back(sprite(at, 40, 40, atlas::ship, ship, engine::rgba(230, 245, 255), facing));
    if (player.shield > 0) {
      out.push_back(
          sprite(at, 56, 56, atlas::shield, ship, engine::rgba(120, 200, 255, 200), 0, engine::BlendMode::additive));
    }
    // The crosshair marks the aim (the mouse's point, or the stick's direction) in the storm.
    const Vec2 aim_at = at + player.aim * kCrosshairDistance;
    out.push_back(sprite(aim_at, 34, 34, atlas::crosshair, crosshair, kOutlineColor));  // dark under white:
    out.push_back(sprite(aim_at, 28, 28, atlas::crosshair, crosshair, engine::rgba(255, 255, 255, 240)));  // seen on
                                                                                                           // any storm
  }
}

}  // namespace

float turn_along(float x, float y) noexcept {
  const float ax = std::fabs(x), ay = std::fabs(y);
  const float big = std::max(ax, ay);
  if (!(big > 0)) return 0;  // (0, 0), and NaN
  // atan of z = small / big in [0, 1], then folded to the octant of (x, y).
  const float z = std::min(ax, ay) / big, z2 = z * z;
  float a =
      z * (1.0f + z2 * (-0.3333314528f +
                        z2 * (0.1999355085f +
                              z2 * (-0.1420889944f +
                                    z2 * (0.1065626393f +
                                          z2 * (-0.0752896400f +
                                                z2 * (0.0429096138f + z2 * (-0.0161657367f + z2 * 0.0028662257f))))))));
  if (ay > ax) a = kPi / 2 - a;
  if (x < 0) a = kPi - a;
  return (y < 0 ? -a : a) - kPi / 2;
}

void collect_sprites(const Simulation& sim, std::vector<engine::Sprite>& out, float alpha) {
  out.clear();
  VectorSink sink{out};
  emit_sprites(sim, sink, alpha);
}

void collect_sprites(const Simulation& sim, engine::SpriteBatch& batch, float alpha) {
  BatchSink sink{batch};
  emit_sprites(sim, sink, alpha);
}

}  // namespace game
