// MemorySnapshot over a real game: it agrees with the stores, it reads the heap in heap mode,
// and refreshing it in the loop (as the overlay's open "Memory map" section does, every
// kRefreshSteps steps) keeps the pooled steady state free of heap allocations.
#include "metrics/alloc_counter.hpp"
#include "metrics/memory_snapshot.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace game {
namespace {

using test::repo_scenario;

std::uint64_t total_growth(const Simulation& sim) { return sim.stats().growth_events; }

TEST(MemorySnapshot, AgreesWithTheStores) {
  Simulation sim(repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  for (int f = 0; f < 300; ++f) sim.step({});
  MemorySnapshot snapshot;
  EXPECT_TRUE(snapshot.due(sim.frame()));
  snapshot.refresh(sim);
  EXPECT_FALSE(snapshot.due(sim.frame() + MemorySnapshot::kRefreshSteps - 1));
  EXPECT_TRUE(snapshot.due(sim.frame() + MemorySnapshot::kRefreshSteps));
  const SimStats stats = sim.stats();
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    const PoolMemory& m = snapshot.pools()[i];
    EXPECT_TRUE(m.pooled);
    EXPECT_EQ(m.map.summary().live, stats.pools[i].live) << pool_name(m.id);
    EXPECT_EQ(m.map.summary().positions, stats.pools[i].capacity) << pool_name(m.id);
  }
  EXPECT_GT(snapshot.pools_bytes_held(), 0u);
  EXPECT_EQ(snapshot.heap().valid, !game::test::kMallocReplaced) << "glibc's figures, unless ASan replaced malloc";
  EXPECT_GT(snapshot.heap().resident_bytes, 0u);
  if (snapshot.heap().valid) {
    EXPECT_GT(snapshot.heap().arena_bytes, 0u);
  }
  const nlohmann::json j = memory_json(snapshot);
  EXPECT_EQ(j["pools"]["particles"]["live"], stats.pools[2].live);
  EXPECT_TRUE(j["heap"].contains("free_bytes_held"));
}

TEST(MemorySnapshot, HeapModeScattersTheObjects) {
  Scenario s = repo_scenario("default.json");
  s.pooling = false;
  Simulation sim(s, 1);
  sim.settings().autofire = true;
  for (int f = 0; f < 300; ++f) sim.step({});
  MemorySnapshot snapshot;
  snapshot.refresh(sim);
  const PoolMemory& particles = snapshot.pools()[static_cast<std::size_t>(PoolId::particles)];
  EXPECT_FALSE(particles.pooled);
  EXPECT_TRUE(particles.map.scatter());
  EXPECT_EQ(particles.map.summary().live, sim.stats().pools[2].live);
  EXPECT_GT(particles.map.summary().span_bytes, particles.map.summary().live * particles.object_bytes / 2);
}

TEST(MemorySnapshot, RefreshingInTheLoopKeepsSteadyStepsAllocationFree) {
  Simulation sim(repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  MemorySnapshot snapshot;
  for (int f = 0; f < 600; ++f) sim.step({});
  snapshot.refresh(sim);  // the first refresh sizes its buffers
  int steady = 0, refreshes = 0;
  std::uint64_t growth_at_refresh = total_growth(sim);
  for (int f = 0; f < 1200; ++f) {
    const std::uint64_t grew_before = total_growth(sim);
    const std::uint64_t before = heap_alloc_count();
    sim.step({});
    bool follows_growth = false;  // the map's walk buffer follows a pool that grew since the last refresh
    if (snapshot.due(sim.frame())) {
      follows_growth = total_growth(sim) != growth_at_refresh;
      snapshot.refresh(sim);
      growth_at_refresh = total_growth(sim);
      ++refreshes;
    }
    const std::uint64_t allocs = heap_alloc_count() - before;
    if (total_growth(sim) != grew_before || follows_growth) continue;  // growth may allocate
    ++steady;
    ASSERT_EQ(allocs, 0u) << "step " << sim.frame() << " with the memory map refreshed allocated";
  }
  EXPECT_GT(steady, 1000);
  EXPECT_GE(refreshes, 1200 / static_cast<int>(MemorySnapshot::kRefreshSteps) - 1);
}

}  // namespace
}  // namespace game
