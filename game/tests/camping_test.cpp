// Standing still is a risk, not a shield (scenario "camping", sim/enemy_kinds.hpp's charger):
// a still player holding fire survives long enough to see the storm, then chargers end the game;
// one who moves never draws them; nothing the player fires touches a charger; and the score
// freezes at the game's end, whatever the shots still in flight strike.
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

namespace game {
namespace {

// The default game with the camping clock shortened, so a test sees chargers within seconds.
Scenario quick_camping(float grace_seconds) {
  Scenario s = test::repo_scenario("default.json");
  s.camping.grace_seconds = grace_seconds;
  s.camping.chargers_per_second = 2;
  return s;
}

TEST(Camping, HoldingFireStillSurvives45SecondsThenTheChargersEndTheGame) {
  // The promise to a player: holding fire still shows the storm (45 s at least) but
  // does not win; 4 minutes is the outer bound (14,400 steps), it ends well before.
  Simulation sim(test::repo_scenario("default.json"), 1);
  int frames = 0;
  for (; frames < 14400 && !sim.game_over(); ++frames) sim.step(test::fire_up(true));
  const SimStats& s = sim.stats();
  std::printf("still and firing: game over at step %llu (%.1f s), chargers %llu, deaths %llu, score %lld\n",
              static_cast<unsigned long long>(s.game_over_frame), static_cast<double>(s.game_over_frame) / 60.0,
              static_cast<unsigned long long>(s.chargers), static_cast<unsigned long long>(s.deaths),
              static_cast<long long>(s.score));
  ASSERT_TRUE(s.game_over);
  EXPECT_GT(s.game_over_frame, 45u * 60u);
  EXPECT_EQ(s.deaths, 3u);
  EXPECT_GE(s.chargers, 3u);
  EXPECT_GT(s.cancels, 0u);  // the storm did cancel enemy bullets all along: it was the chargers
}

TEST(Camping, MovingKeepsTheChargersAway) {
  const Scenario scenario = quick_camping(1.0f);
  Simulation moving(scenario, 1), still(scenario, 1);
  for (int f = 0; f < 600; ++f) {
    Input in = test::fire_up(false);
    in.move_x = (f / 60) % 2 == 0 ? 1.0f : -1.0f;  // a second each way: 340 units, past the 64-unit circle
    moving.step(in);
    still.step(test::fire_up(false));
  }
  EXPECT_EQ(moving.stats().chargers, 0u);
  EXPECT_GE(still.stats().chargers, 3u);
  EXPECT_TRUE(still.stats().game_over);  // three rams, three lives
  EXPECT_LT(moving.stats().camping_seconds, 1.1f);
}

TEST(Camping, NothingThePlayerFiresTouchesACharger) {
  Scenario scenario = quick_camping(1.0f);
  scenario.enemy_density = 0;                    // no wave enemies: every enemy is a charger
  scenario.escalation.doubling_seconds = 0.05f;  // the fan opens to a full circle within a second
  scenario.player.respawn_shield_seconds = 0;
  Simulation sim(scenario, 1);
  std::uint64_t peak_enemies = 0;
  for (int f = 0; f < 240; ++f) {
    sim.step(test::fire_up(true));
    peak_enemies =
        std::max<std::uint64_t>(peak_enemies, sim.stats().pools[static_cast<std::size_t>(PoolId::enemies)].live);
  }
  const SimStats& s = sim.stats();
  EXPECT_GE(s.chargers, 3u);
  EXPECT_GT(peak_enemies, 0u);
  EXPECT_EQ(s.hits, 0u);  // the storm flew through them
  EXPECT_EQ(s.kills, 0u);
  EXPECT_EQ(s.score, 0);
  EXPECT_GE(s.deaths, 1u);  // and they rammed the ship
}

TEST(Camping, AShieldedShipLetsChargersFlyOn) {
  Scenario scenario = quick_camping(0.5f);
  scenario.enemy_density = 0;
  scenario.player.invulnerable = true;
  Simulation sim(scenario, 1);
  for (int f = 0; f < 600; ++f) sim.step(test::fire_up(false));
  EXPECT_GE(sim.stats().chargers, 10u);
  EXPECT_EQ(sim.stats().deaths, 0u);
}

TEST(Camping, NoChargersWhenTheScenarioTurnsThemOff) {
  Scenario scenario = quick_camping(0.5f);
  scenario.camping.chargers_per_second = 0;
  Simulation sim(scenario, 1);
  for (int f = 0; f < 600; ++f) sim.step(test::fire_up(false));
  EXPECT_EQ(sim.stats().chargers, 0u);
}

TEST(Camping, TheScoreFreezesWhenTheGameEnds) {
  // Shots in flight when the last life goes still strike enemies (hits go on), but score and
  // kills do not move, so HUD, panel, report and best score read one number. A steady stream
  // of tough grunts keeps the storm striking at the moment the chargers end the game.
  Scenario scenario = quick_camping(3.0f);
  WaveConfig wave;
  wave.delay = 0.5f;
  wave.count = 12;
  wave.hp = 40;
  wave.fire_interval = 60;  // they never fire: only the chargers end this game
  scenario.waves = {wave};
  Simulation sim(scenario, 1);
  for (int f = 0; f < 3600 && !sim.game_over(); ++f) sim.step(test::fire_up(true));
  ASSERT_TRUE(sim.game_over());
  const SimStats at_end = sim.stats();
  for (int f = 0; f < 120; ++f) sim.step(test::fire_up(true));
  const SimStats& later = sim.stats();
  std::printf("after the end: hits %llu -> %llu, score %lld\n", static_cast<unsigned long long>(at_end.hits),
              static_cast<unsigned long long>(later.hits), static_cast<long long>(later.score));
  EXPECT_GT(later.hits, at_end.hits) << "no shot struck after the end: the freeze below would prove nothing";
  EXPECT_GT(at_end.score, 0);
  EXPECT_EQ(later.score, at_end.score);
  EXPECT_EQ(later.kills, at_end.kills);
  EXPECT_EQ(later.game_over_frame, at_end.game_over_frame);
}

TEST(Camping, ChargersAreTheSameGameInEveryStorage) {
  // The autopilot strafes; a circle the size of the field makes it a camper, so chargers come.
  Scenario base = quick_camping(2.0f);
  base.camping.radius = 8192;
  const auto with = [&](bool pooling, engine::StorageMode storage) {
    Scenario s = base;
    s.pooling = pooling;
    s.storage = storage;
    return s;
  };
  for (const std::uint64_t seed : {1u, 42u}) {
    const std::uint64_t reference = test::hash_after(with(true, engine::StorageMode::contiguous), seed, 900);
    EXPECT_EQ(reference, test::hash_after(with(true, engine::StorageMode::stable), seed, 900)) << seed;
    EXPECT_EQ(reference, test::hash_after(with(true, engine::StorageMode::packed), seed, 900)) << seed;
    EXPECT_EQ(reference, test::hash_after(with(true, engine::StorageMode::packed_pages), seed, 900)) << seed;
    EXPECT_EQ(reference, test::hash_after(with(false, engine::StorageMode::contiguous), seed, 900)) << seed;
  }
  Simulation sim(base, 1);
  sim.settings().autofire = true;
  for (int f = 0; f < 900; ++f) sim.step({});
  EXPECT_GE(sim.stats().chargers, 10u);  // guards the comparison: chargers really flew
}

}  // namespace
}  // namespace game
