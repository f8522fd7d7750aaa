// With pooling on and the pools past their peak, a simulation step makes no heap
// allocation at all; operator new is counted by game/src/alloc_counter.cpp.
#include "metrics/alloc_counter.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <new>

namespace game {
namespace {

using test::repo_scenario;

std::uint64_t total_growth(const Simulation& sim) {
  std::uint64_t n = 0;
  for (const StoreStats& s : sim.stats().pools) n += s.growth_events;
  return n;
}

TEST(AllocCounter, CountsEveryFormOfNew) {
  const std::uint64_t before = heap_alloc_count();
  auto plain = std::make_unique<int>(1);
  auto array = std::make_unique<int[]>(8);
  struct alignas(64) Wide {
    char bytes[64];
  };
  auto wide = std::make_unique<Wide>();
  int* nothrow = new (std::nothrow) int(3);
  delete nothrow;
  EXPECT_EQ(heap_alloc_count() - before, 4u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(wide.get()) % 64, 0u) << "aligned new must honour the alignment";
}

// Runs warm-up frames, then `frames` more, and checks every steady frame: one in which no
// store grew. Returns how many steady frames there were.
int assert_steady_frames_allocate_nothing(Simulation& sim, int warmup, int frames) {
  for (int f = 0; f < warmup; ++f) sim.step({});
  int steady = 0;
  for (int f = 0; f < frames; ++f) {
    const std::uint64_t grew_before = total_growth(sim);
    const std::uint64_t allocs = count_step_allocations(sim);
    if (total_growth(sim) != grew_before) continue;  // a growth frame may allocate: that is growth
    ++steady;
    EXPECT_EQ(allocs, 0u) << "step " << sim.frame() << " allocated with no pool growth";
    if (allocs != 0) break;  // one failure says it; do not flood the log
  }
  return steady;
}

TEST(SteadyState, PooledContiguousStepsAllocateNothing) {
  Simulation sim(repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  EXPECT_GT(assert_steady_frames_allocate_nothing(sim, 600, 3000), 2900);
  EXPECT_GT(sim.stats().kills, 0u) << "the run must have had explosions to be meaningful";
}

TEST(SteadyState, PooledStableStepsAllocateNothing) {
  Scenario s = repo_scenario("default.json");
  s.storage = engine::StorageMode::stable;
  Simulation sim(s, 2);
  sim.settings().autofire = true;
  EXPECT_GT(assert_steady_frames_allocate_nothing(sim, 600, 3000), 2900);
}

TEST(SteadyState, PooledSwapPopAndBitmapWalksAllocateNothing) {
  for (WalkMode walk : {WalkMode::swap_pop, WalkMode::bitmap}) {
    Scenario s = repo_scenario("default.json");
    s.walk = walk;
    Simulation sim(s, 4);
    sim.settings().autofire = true;
    EXPECT_GT(assert_steady_frames_allocate_nothing(sim, 600, 1500), 1400) << walk_name(walk);
  }
}

// The update phase on 2 and 8 threads still allocates nothing in a steady frame (the
// team passes its task by reference; chunk lists and scratch keep their capacity).
TEST(SteadyState, ParallelStepsAtTwoAndEightThreadsAllocateNothing) {
  for (const std::uint32_t threads : {2u, 8u}) {
    Simulation sim(repo_scenario("default.json"), 5);
    sim.settings().autofire = true;
    sim.settings().threads = threads;
    EXPECT_GT(assert_steady_frames_allocate_nothing(sim, 600, 1500), 1400) << threads << " threads";
    EXPECT_EQ(sim.stats().threads, threads);
  }
}

TEST(SteadyState, AfterGrowthFromTinyPoolsStepsAllocateNothing) {
  // Pools start at 16 slots and grow during warm-up; afterwards nothing allocates.
  Scenario s = repo_scenario("default.json");
  test::use_tiny_pools(s, 16);
  Simulation sim(s, 3);
  sim.settings().autofire = true;
  EXPECT_GT(assert_steady_frames_allocate_nothing(sim, 1200, 2400), 2000);
  EXPECT_GT(total_growth(sim), 0u) << "tiny pools must have grown";
}

TEST(SteadyState, HeapModeAllocatesPerObject) {
  // The counter is live and heap mode is really one new per object.
  Scenario s = repo_scenario("default.json");
  s.pooling = false;
  Simulation sim(s, 1);
  sim.settings().autofire = true;
  for (int f = 0; f < 300; ++f) sim.step({});
  std::uint64_t allocs = 0;
  const std::uint64_t spawns_before = sim.stats().pools[0].spawns + sim.stats().pools[2].spawns;
  for (int f = 0; f < 60; ++f) allocs += count_step_allocations(sim);
  const std::uint64_t spawns = sim.stats().pools[0].spawns + sim.stats().pools[2].spawns - spawns_before;
  EXPECT_GT(spawns, 0u);
  EXPECT_GE(allocs, spawns);
}

TEST(SteadyState, RunHeadlessReportsZeroForPooledRuns) {
  Simulation sim(repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  // The autopilot's bursts grow the pools until one of them first passes about 2400 live
  // bullets (frame 1133 with homing shots, which take targets down sooner); then they hold.
  const FrameSummary summary = run_headless(sim, 2400);
  EXPECT_EQ(summary.frames, 2400u);
  EXPECT_GT(summary.of(FrameKind::steady).frames, 1000u);
  EXPECT_EQ(summary.of(FrameKind::steady).per_frame_max, 0);
  EXPECT_EQ(summary.of(FrameKind::heap).frames, 0u);
}

}  // namespace
}  // namespace game
