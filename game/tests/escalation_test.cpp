// Holding fire is the stress test: the escalation's live counts, growths, cooling, and a
// player who holds fire surviving where one who does not can lose.
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace game {
namespace {

std::size_t live_objects(const SimStats& s) {
  return s.pools[static_cast<std::size_t>(PoolId::bullets)].live +
         s.pools[static_cast<std::size_t>(PoolId::particles)].live;
}

TEST(Escalation, TenSecondsOfHeldFireFillThePoolsAndGrowThem) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  std::size_t peak = 0;
  for (int f = 0; f < 600; ++f) {
    sim.step(test::fire_up(true));
    peak = std::max(peak, live_objects(sim.stats()));
  }
  const SimStats s = sim.stats();
  std::printf("peak live %zu, growth events %llu, heat x%.0f, bullets %zu particles %zu cancels %llu lives %d\n", peak,
              static_cast<unsigned long long>(s.growth_events), static_cast<double>(s.heat_multiplier), s.pools[0].live,
              s.pools[2].live, static_cast<unsigned long long>(s.cancels), s.lives);
  EXPECT_GE(peak, 200000u);
  EXPECT_GE(s.growth_events, 6u);
  EXPECT_GE(s.heat_multiplier, 512.0f);
}

TEST(Escalation, ReleasingFireCoolsWithinTwoSeconds) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  for (int f = 0; f < 600; ++f) sim.step(test::fire_up(true));
  ASSERT_GT(sim.stats().heat_multiplier, 100.0f);
  for (int f = 0; f < 120; ++f) sim.step(test::fire_up(false));
  EXPECT_FLOAT_EQ(sim.stats().heat_multiplier, 1.0f);
  EXPECT_FLOAT_EQ(sim.stats().heat_fraction, 0.0f);
}

TEST(Escalation, HeldFireCancelsEnemyBulletsForAMinute) {
  // The storm cancels what comes close. Standing still is still a risk: past the camping grace
  // (40 s by default) chargers come, and they are not bullets (camping_test.cpp).
  Scenario scenario = test::repo_scenario("default.json");
  scenario.camping.chargers_per_second = 0;
  Simulation sim(scenario, 1);
  for (int f = 0; f < 3600; ++f) sim.step(test::fire_up(true));
  const SimStats s = sim.stats();
  std::printf("after 60 s of held fire: lives %d deaths %llu kills %llu cancels %llu wave %u\n", s.lives,
              static_cast<unsigned long long>(s.deaths), static_cast<unsigned long long>(s.kills),
              static_cast<unsigned long long>(s.cancels), s.wave);
  EXPECT_FALSE(s.game_over);
  EXPECT_GT(s.cancels, 0u);
}

TEST(Escalation, APlayerWhoNeverFiresCanLose) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  for (int f = 0; f < 3600 && !sim.game_over(); ++f) sim.step(test::fire_up(false));
  EXPECT_TRUE(sim.game_over());
}

TEST(Escalation, NothingSpawnsOnceTheGameIsOver) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  for (int f = 0; f < 3600 && !sim.game_over(); ++f) sim.step(test::fire_up(false));
  ASSERT_TRUE(sim.game_over());
  const std::uint32_t wave = sim.stats().wave;
  for (int f = 0; f < 1200; ++f) sim.step(test::fire_up(false));
  EXPECT_EQ(sim.stats().wave, wave);
}

}  // namespace
}  // namespace game
