// storm.json, headless: it must really reach its live counts (>= 100k bullets, >= 500k
// particles) with pools that grew on the way, and still give one hash in every storage.
// Labelled `heavy`: a few seconds in release, tens of seconds under ASan.
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

namespace game {
namespace {

using test::repo_scenario;

constexpr int kStormFrames = 390;  // 6.5 s: past both thresholds with a margin

std::size_t peak(const SimStats& s, PoolId id) { return s.pools[static_cast<std::size_t>(id)].peak_live; }

TEST(Storm, ReachesItsLiveCountsAndGrows) {
  Simulation sim(repo_scenario("storm.json"), 7);
  sim.settings().autofire = true;
  const FrameSummary summary = run_headless(sim, kStormFrames);
  const SimStats s = sim.stats();
  EXPECT_GE(peak(s, PoolId::bullets) + peak(s, PoolId::enemy_bullets), 100000u);
  EXPECT_GE(peak(s, PoolId::enemy_bullets), 100000u);
  EXPECT_GE(peak(s, PoolId::particles), 500000u);
  // The pools the storm fills past their first page grow (the bullets and enemies fit theirs).
  EXPECT_GT(s.pools[static_cast<std::size_t>(PoolId::enemy_bullets)].growth_events, 0u);
  EXPECT_GT(s.pools[static_cast<std::size_t>(PoolId::particles)].growth_events, 0u);
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    EXPECT_EQ(s.pools[i].refused_spawns, 0u) << pool_name(static_cast<PoolId>(i)) << " hit max_capacity";
  }
  EXPECT_FALSE(sim.growth_log().empty());
  EXPECT_GT(summary.of(FrameKind::steady).frames, 0u);
  EXPECT_EQ(summary.of(FrameKind::steady).per_frame_max, 0) << "a storm frame without growth allocated";
}

TEST(Storm, PoolingOffGivesTheSameGame) {
  Scenario pooled = repo_scenario("storm.json");
  Scenario heap = pooled;
  heap.pooling = false;
  Scenario stable = pooled;
  stable.storage = engine::StorageMode::stable;
  constexpr int kFrames = 240;  // thousands of hits, hundreds of kills and explosions
  const std::uint64_t reference = test::hash_after(pooled, 7, kFrames);
  EXPECT_EQ(reference, test::hash_after(heap, 7, kFrames));
  EXPECT_EQ(reference, test::hash_after(stable, 7, kFrames));
}

}  // namespace
}  // namespace game
