// collect_sprites: one sprite per live object (plus background and ship), on the right
// layer and blend, at positions interpolated between the last two steps.
#include "sim/atlas_cells.hpp"
#include "app/sprite_list.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace game {
namespace {

TEST(RenderList, TurnAlongMatchesAtan2InEveryOctant) {
  // Directions all round the circle, at lengths from 1e-6 to 1e6: the polynomial turn and
  // std::atan2's agree to 1e-6 rad (a sprite's turn is drawn in 64 steps of 0.098 rad).
  float worst = 0;
  for (int i = 0; i < 3600; ++i) {
    const float angle = static_cast<float>(i) * (2 * kPi / 3600) - kPi;
    for (const float length : {1e-6f, 1.0f, 1e6f}) {
      const float x = std::cos(angle) * length, y = std::sin(angle) * length;
      const float want = std::atan2(y, x) - kPi / 2;
      const float off = std::remainder(turn_along(x, y) - want, 2 * kPi);  // -pi and pi are one turn
      worst = std::max(worst, std::fabs(off));
    }
  }
  EXPECT_LT(worst, 1e-6f);
  EXPECT_EQ(turn_along(0, 0), 0.0f);
  EXPECT_FLOAT_EQ(turn_along(0, 1), 0.0f);      // pointing up: no turn
  EXPECT_FLOAT_EQ(turn_along(-1, 0), kPi / 2);  // left: a quarter turn counter-clockwise
}

TEST(RenderList, OneSpritePerObjectOnItsLayer) {
  using namespace layer;
  Scenario scenario = test::repo_scenario("default.json");
  scenario.escalation.cancels_enemy_bullets = false;  // the enemies' shots stay, to be drawn
  Simulation sim(scenario, 1);
  sim.settings().autofire = true;
  for (int f = 0; f < 400; ++f) sim.step({});
  std::vector<engine::Sprite> sprites;
  collect_sprites(sim, sprites, 0.5f);
  const SimStats s = sim.stats();
  std::map<std::uint8_t, std::size_t> per_layer;
  for (const engine::Sprite& sp : sprites) ++per_layer[sp.layer];
  const auto live = [&](PoolId id) { return s.pools[static_cast<std::size_t>(id)].live; };
  EXPECT_EQ(per_layer[trail] + per_layer[particles], live(PoolId::particles));
  EXPECT_EQ(per_layer[player_bullets], live(PoolId::bullets));
  // Each enemy and enemy bullet: one sprite on its layer and one outline just below it.
  EXPECT_EQ(per_layer[enemies], live(PoolId::enemies));
  EXPECT_EQ(per_layer[enemy_outlines], live(PoolId::enemies));
  EXPECT_EQ(per_layer[enemy_bullets], live(PoolId::enemy_bullets));
  EXPECT_EQ(per_layer[enemy_bullet_outlines], live(PoolId::enemy_bullets));
  EXPECT_GT(per_layer[background], 0u);  // stars
  EXPECT_GE(per_layer[ship], 1u);
  EXPECT_EQ(per_layer[crosshair], 2u);  // the ship is alive: its aim is marked (and outlined)
  for (const engine::Sprite& sp : sprites) {
    if (sp.layer == trail || sp.layer == particles) {
      EXPECT_EQ(sp.blend, engine::BlendMode::additive);
    }
    if (sp.layer >= player_bullets && sp.layer <= enemy_bullets) {
      EXPECT_EQ(sp.blend, engine::BlendMode::alpha);
    }
    EXPECT_LT(sp.cell, atlas::cell_count);
  }
  EXPECT_GT(live(PoolId::particles), 0u);
  EXPECT_GT(live(PoolId::enemies), 0u);
  EXPECT_GT(live(PoolId::enemy_bullets), 0u);
}

TEST(RenderList, InterpolatesBetweenSteps) {
  Scenario scenario = test::repo_scenario("default.json");
  scenario.player.respawn_shield_seconds = 0;  // no blinking: the ship is drawn every step
  Simulation sim(scenario, 1);
  Input right;
  right.move_x = 1;
  for (int f = 0; f < 5; ++f) sim.step(right);
  std::vector<engine::Sprite> at0, at1, half;
  collect_sprites(sim, at0, 0.0f);
  collect_sprites(sim, at1, 1.0f);
  collect_sprites(sim, half, 0.5f);
  const auto ship_x = [](const std::vector<engine::Sprite>& v) {
    const auto it = std::find_if(v.begin(), v.end(), [](const engine::Sprite& s) { return s.cell == atlas::ship; });
    return it == v.end() ? -1.0f : it->x;
  };
  ASSERT_GE(ship_x(at1), 0.0f);
  const float step = scenario.player.speed * Simulation::kStepSeconds;
  EXPECT_NEAR(ship_x(at1) - ship_x(at0), step, 1e-3);
  EXPECT_NEAR(ship_x(half), (ship_x(at0) + ship_x(at1)) / 2, 1e-3);
}

// Particles keep no `prev`: where one was a step ago comes from its position and velocity
// (previous_position), so a sprite at alpha 0 is where the particle was after the step before.
TEST(RenderList, ParticlesInterpolateFromWhereTheyWereAStepAgo) {
  Scenario scenario = test::repo_scenario("default.json");
  Simulation sim(scenario, 1);
  sim.settings().autofire = true;
  for (int f = 0; f < 200; ++f) sim.step({});
  std::map<std::uint64_t, Vec2> before;
  sim.particles().store().for_each([&](const Particle& p) { before[p.seq] = p.pos; });
  sim.step({});
  std::size_t compared = 0, moved = 0;
  sim.particles().store().for_each([&](const Particle& p) {
    const auto was = before.find(p.seq);
    if (was == before.end()) return;  // born this step
    const Vec2 back = previous_position(p, Simulation::kStepSeconds);
    ASSERT_NEAR(back.x, was->second.x, 1e-3f) << "particle " << p.seq;
    ASSERT_NEAR(back.y, was->second.y, 1e-3f) << "particle " << p.seq;
    ++compared;
    if (p.pos.x != was->second.x || p.pos.y != was->second.y) ++moved;
  });
  EXPECT_GT(compared, 50u);
  EXPECT_GT(moved, compared / 2) << "most particles move: the check must not pass on still ones alone";
}

}  // namespace
}  // namespace game
