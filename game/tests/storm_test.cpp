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

// The pools grow only at the end of a step without a burst (Simulation::make_room): a step in
// which the particles rose by more than a quarter of their largest burst so far grows no pool,
// unless a spawn outran the room (a growth mid-step, which no rule between steps can prevent).
TEST(Storm, NoPoolGrowsOnAStepThatBurstWhileItHadRoom) {
  Simulation sim(repo_scenario("storm.json"), 11);
  sim.settings().autofire = true;
  sim.settings().threads = 1;
  const Input none{};
  int bursts_with_room = 0, growths = 0;
  for (int f = 0; f < 300; ++f) {
    const SimStats before = sim.stats();
    sim.step(none);
    const SimStats& after = sim.stats();
    growths += after.grew ? 1 : 0;
    bool had_room = true;  // every pool could take all of this step's spawns without growing
    for (std::size_t i = 0; i < kPoolCount; ++i) {
      had_room =
          had_room && after.pools[i].spawns - before.pools[i].spawns <= before.pools[i].capacity - before.pools[i].live;
    }
    const StoreStats& p = after.pools[static_cast<std::size_t>(PoolId::particles)];
    const StoreStats& p0 = before.pools[static_cast<std::size_t>(PoolId::particles)];
    // The net rise is at most the step's rise (its high), so this step was a burst.
    const bool burst = p.live > p0.live && 4 * (p.live - p0.live) > p.burst_peak;
    if (!burst || !had_room) continue;
    ++bursts_with_room;
    EXPECT_FALSE(after.grew) << "step " << after.frame << " burst (" << p.live - p0.live << " particles, largest "
                             << p.burst_peak << ") and grew a pool";
  }
  EXPECT_GT(bursts_with_room, 10) << "the storm's explosions are bursts: the test must see some";
  EXPECT_GT(growths, 10) << "and its pools grow on other steps";
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
