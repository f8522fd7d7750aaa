// The rules: fire rate and stress, hits and kills, lives, game over and restart.
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

namespace game {
namespace {

std::uint64_t bullets_spawned(const Simulation& sim) { return sim.stats().pools[0].spawns; }

TEST(Gameplay, FireRateTimesStress) {
  Scenario s = test::repo_scenario("default.json");
  s.escalation.max_multiplier = 1;  // the base rate, without held-fire escalation
  Input fire;
  fire.fire = true;
  fire.aim = {640, 700};
  const auto per_second =
      static_cast<double>(s.weapon.shots_per_second * static_cast<float>(s.weapon.bullets_per_shot));
  for (const float stress : {1.0f, 10.0f}) {
    Simulation sim(s, 1);
    sim.settings().stress = stress;
    for (int f = 0; f < 60; ++f) sim.step(fire);  // one second
    EXPECT_NEAR(static_cast<double>(bullets_spawned(sim)), per_second * stress, s.weapon.bullets_per_shot * 1.0)
        << "stress " << stress;
  }
}

TEST(Gameplay, KillsScoreAndExplode) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  sim.settings().particles_per_explosion = 500;
  while (sim.stats().kills == 0 && sim.frame() < 1200) sim.step({});
  const SimStats s = sim.stats();
  ASSERT_GT(s.kills, 0u);
  EXPECT_GT(s.score, 0);
  EXPECT_GE(s.pools[static_cast<std::size_t>(PoolId::particles)].spawns, 500u);
}

TEST(Gameplay, LivesGameOverAndRestart) {
  Scenario scenario = test::repo_scenario("default.json");
  Simulation sim(scenario, 1);
  // Standing still under aimed fire: the ship dies `lives` times.
  while (!sim.game_over() && sim.frame() < 60 * 120) sim.step({});
  ASSERT_TRUE(sim.game_over());
  SimStats s = sim.stats();
  EXPECT_EQ(s.lives, 0);
  EXPECT_EQ(s.deaths, static_cast<std::uint64_t>(scenario.player.lives));
  // After game over the ship no longer fires.
  Input fire;
  fire.fire = true;
  const std::uint64_t before = bullets_spawned(sim);
  for (int f = 0; f < 30; ++f) sim.step(fire);
  EXPECT_EQ(bullets_spawned(sim), before);
  Input restart;
  restart.restart = true;
  sim.step(restart);
  s = sim.stats();
  EXPECT_FALSE(sim.game_over());
  EXPECT_EQ(s.lives, scenario.player.lives);
  EXPECT_EQ(s.score, 0);
  EXPECT_EQ(s.pools[static_cast<std::size_t>(PoolId::enemies)].live, 0u);
  EXPECT_EQ(s.pools[static_cast<std::size_t>(PoolId::enemy_bullets)].live, 0u);
}

TEST(Gameplay, InvulnerableShipNeverDies) {
  Scenario scenario = test::repo_scenario("default.json");
  scenario.player.invulnerable = true;
  Simulation sim(scenario, 1);
  for (int f = 0; f < 60 * 40; ++f) sim.step({});
  EXPECT_EQ(sim.stats().deaths, 0u);
}

TEST(Gameplay, MaxCapacityRefusesInsteadOfGrowing) {
  Scenario scenario = test::repo_scenario("default.json");
  auto& bullets = scenario.pools[static_cast<std::size_t>(PoolId::bullets)];
  bullets.initial_capacity = 16;
  bullets.max_capacity = 20;
  Simulation sim(scenario, 1);
  sim.settings().stress = 50;
  Input fire;
  fire.fire = true;
  fire.aim = {640, 700};
  for (int f = 0; f < 30; ++f) sim.step(fire);
  const StoreStats s = sim.stats().pools[0];
  EXPECT_LE(s.peak_live, 20u);
  EXPECT_GT(s.refused_spawns, 0u);
}

}  // namespace
}  // namespace game
