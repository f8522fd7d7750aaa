// The capacity advisor: its arithmetic, and that its advice works. A run with small pools
// grows; the same run started with the suggested initial capacities never grows, and the
// suggestion applied mid-game through Settings (the overlay's button) stops all growth
// after the step that applies it. Neither changes the game.
#include "metrics/capacity_advisor.hpp"
#include "app/headless_run.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

namespace game {
namespace {

constexpr std::uint64_t kFrames = 900;  // 15 s: several waves, explosions, a boss on the way

Scenario small_pools() {
  Scenario s = test::repo_scenario("default.json");
  for (PoolConfig& p : s.pools) p.initial_capacity = 4;  // every pool grows, enemies too
  s.storage = engine::StorageMode::contiguous;           // by doubling, from 4
  s.stress = 3;
  return s;
}

struct Outcome {
  std::uint64_t growths = 0, hash = 0;
  SimStats stats;
  Settings applied;
};

Outcome play(const Scenario& scenario) {
  Simulation sim(scenario, 11);
  sim.settings().autofire = true;
  run_headless(sim, kFrames);
  return {sim.stats().growth_events, sim.state_hash(), sim.stats(), sim.applied_settings()};
}

TEST(CapacityAdvisor, PeakPlusMarginRoundedUpAndClamped) {
  EXPECT_EQ(suggested_capacity(0, 0.25, 64, 1 << 20), 64u);       // never below one round unit
  EXPECT_EQ(suggested_capacity(100, 0.25, 64, 1 << 20), 128u);    // 125 -> 128
  EXPECT_EQ(suggested_capacity(1000, 0.25, 64, 1 << 20), 1280u);  // exactly 1250 -> 1280
  EXPECT_EQ(suggested_capacity(1024, 0.0, 64, 1 << 20), 1024u);   // no margin: the peak itself
  EXPECT_EQ(suggested_capacity(1000, 0.25, 1, 1 << 20), 1250u);
  EXPECT_EQ(suggested_capacity(900, 0.25, 64, 1000), 1000u);  // clamped to max
  EXPECT_EQ(suggested_capacity(990, 0.0, 64, 1000), 1000u);   // rounding would pass max
  EXPECT_EQ(suggested_capacity(std::numeric_limits<std::size_t>::max(), 0.25, 64, 4096), 4096u);
  EXPECT_EQ(suggested_capacity(10, std::numeric_limits<double>::quiet_NaN(), 64, 4096), 64u);
  EXPECT_EQ(suggested_capacity(10, -3.0, 1, 4096), 10u);  // a negative margin counts as 0
}

TEST(CapacityAdvisor, AdviceReadsThePeaksAndPolicies) {
  SimStats stats;
  Settings applied;
  stats.pools[2].peak_live = 5000;
  stats.pools[2].growth_events = 4;
  applied.pools[2].initial_capacity = 1024;
  applied.pools[2].max_capacity = 6000;
  const CapacityAdvices advice = advise_capacities(stats, applied, {0.25, 64});
  const CapacityAdvice& a = advice[2];
  EXPECT_EQ(a.pool, PoolId::particles);
  EXPECT_EQ(a.peak_live, 5000u);
  EXPECT_EQ(a.suggested_initial, 6000u);
  EXPECT_TRUE(a.clamped_to_max);
  EXPECT_TRUE(a.changes_anything());
  EXPECT_EQ(a.growth_events, 4u);
  Settings s = applied;
  apply_advice(s, advice);
  EXPECT_EQ(s.pools[2].initial_capacity, 6000u);
  EXPECT_EQ(s.pools[0].initial_capacity, 64u);  // peak 0: one round unit
}

TEST(CapacityAdvisor, SuggestedCapacitiesRemoveTheGrowthsOfARerun) {
  const Scenario scenario = small_pools();
  const Outcome first = play(scenario);
  ASSERT_GT(first.growths, 0u);
  for (std::size_t i = 0; i < kPoolCount; ++i) EXPECT_GT(first.stats.pools[i].growth_events, 0u) << i;

  Scenario advised = scenario;
  const CapacityAdvices advice = advise_capacities(first.stats, first.applied);
  for (std::size_t i = 0; i < kPoolCount; ++i) advised.pools[i].initial_capacity = advice[i].suggested_initial;
  const Outcome rerun = play(advised);
  EXPECT_EQ(rerun.growths, 0u);
  EXPECT_EQ(rerun.hash, first.hash) << "capacity changes speed, never the game";
  for (std::size_t i = 0; i < kPoolCount; ++i)
    EXPECT_EQ(rerun.stats.pools[i].peak_live, first.stats.pools[i].peak_live);
}

TEST(CapacityAdvisor, AppliedMidGameThroughSettingsTheNextGrowthNeverComes) {
  const Scenario scenario = small_pools();
  const Outcome reference = play(scenario);  // learns the peaks of the whole run
  const CapacityAdvices advice = advise_capacities(reference.stats, reference.applied);

  Simulation sim(scenario, 11);
  sim.settings().autofire = true;
  run_headless(sim, 60);
  const std::uint64_t before = sim.stats().growth_events;
  apply_advice(sim.settings(), advice);  // what the overlay's "Apply suggestions" does
  sim.step({});                          // applies it: reserves the suggested capacities now
  const std::uint64_t at_apply = sim.stats().growth_events;
  EXPECT_GT(at_apply, before) << "the reservation is the last growth, made at the click";
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    EXPECT_GE(sim.stats().pools[i].capacity, advice[i].suggested_initial) << i;
  }
  run_headless(sim, kFrames - 61);
  EXPECT_EQ(sim.stats().growth_events, at_apply);
  EXPECT_EQ(sim.state_hash(), reference.hash);
}

TEST(CapacityAdvisor, AdvisedScenarioFileLoadsWithTheSuggestions) {
  namespace fs = std::filesystem;
  const fs::path out = game::test::scratch_path("poolshot_advisor_test_advised.json");
  SimStats stats;
  Settings applied = settings_from(test::repo_scenario("default.json"));
  stats.pools[1].peak_live = 3000;
  const CapacityAdvices advice = advise_capacities(stats, applied);
  std::string error;
  ASSERT_TRUE(write_advised_scenario(std::string(POOLSHOT_SCENARIO_DIR) + "/default.json", out.string(), advice, error))
      << error;
  const ScenarioResult loaded = load_scenario(out.string());
  ASSERT_TRUE(loaded.scenario) << loaded.error;
  EXPECT_EQ(loaded.scenario->pools[1].initial_capacity, 3776u);  // 3750 rounded up to 64
  EXPECT_EQ(loaded.scenario->pools[0].initial_capacity, 64u);
  EXPECT_EQ(loaded.scenario->waves.size(), test::repo_scenario("default.json").waves.size());
  fs::remove(out);

  EXPECT_FALSE(write_advised_scenario("/nonexistent/scenario.json", out.string(), advice, error));
  EXPECT_NE(error.find("/nonexistent/scenario.json"), std::string::npos) << error;
}

}  // namespace
}  // namespace game
