// Pooling changes speed, never gameplay: the same seed, scenario and input give the same
// state hash in every storage configuration, also when the storage changes mid-run.
#include "app/headless_run.hpp"
#include "app/sprite_list.hpp"
#include "sim/script.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace game {
namespace {

using test::hash_after;
using test::repo_scenario;

constexpr int kFrames = 1800;  // 30 s of default.json: waves, hits, kills, deaths, a restart
// Several seeds: with one seed, two storages can visit objects in the same order by
// coincidence, and a storage-order bug would slip through.
constexpr std::uint64_t kSeeds[] = {1, 9, 42, 1234};

// default.json with tiny pools, so contiguous pools grow and relocate many times (and paged
// ones add many pages).
Scenario small_pools(Scenario s) {
  test::use_tiny_pools(s, 16);
  return s;
}

Scenario with_storage(Scenario s, bool pooling, engine::StorageMode storage, std::size_t growth_step = 0) {
  s.pooling = pooling;
  s.storage = storage;
  for (PoolConfig& p : s.pools) {
    p.growth_step = growth_step;
    p.page_slots = 64;  // many pages in stable mode
  }
  return s;
}

TEST(Determinism, SameSeedTwiceGivesSameHash) {
  const Scenario s = repo_scenario("default.json");
  EXPECT_EQ(hash_after(s, 42, kFrames), hash_after(s, 42, kFrames));
}

TEST(Determinism, DifferentSeedGivesDifferentHash) {
  const Scenario s = repo_scenario("default.json");
  EXPECT_NE(hash_after(s, 42, kFrames), hash_after(s, 43, kFrames));
}

TEST(Determinism, HashSeesOneDifferentInput) {
  // The hash must cover the state: one step of different movement changes it.
  const Scenario s = repo_scenario("default.json");
  Simulation a(s, 5), b(s, 5);
  Input left;
  left.move_x = -1;
  for (int f = 0; f < 10; ++f) {
    a.step({});
    b.step(f == 3 ? left : Input{});
  }
  EXPECT_NE(a.state_hash(), b.state_hash());
}

TEST(Determinism, PoolingOnOffContiguousStableAllAgree) {
  const Scenario base = small_pools(repo_scenario("default.json"));
  for (const std::uint64_t seed : kSeeds) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::uint64_t reference =
        hash_after(with_storage(base, true, engine::StorageMode::contiguous), seed, kFrames);
    EXPECT_EQ(reference, hash_after(with_storage(base, true, engine::StorageMode::stable), seed, kFrames));
    EXPECT_EQ(reference, hash_after(with_storage(base, true, engine::StorageMode::packed), seed, kFrames));
    EXPECT_EQ(reference, hash_after(with_storage(base, true, engine::StorageMode::packed_pages), seed, kFrames));
    EXPECT_EQ(reference, hash_after(with_storage(base, false, engine::StorageMode::contiguous), seed, kFrames));
    EXPECT_EQ(reference, hash_after(with_storage(base, false, engine::StorageMode::stable), seed, kFrames));
    EXPECT_EQ(reference, hash_after(with_storage(base, true, engine::StorageMode::contiguous, 24), seed, kFrames));
  }
}

// The walk a pooled store uses each step (the pool's bitmap, a swap-pop active list, a
// slot-order active list) changes speed only. pressure.json churns harder (a 3x weapon): the
// pools refill from their free stacks every step, so a swap-pop list is well scrambled.
TEST(Determinism, EveryWalkGivesTheSameGame) {
  for (const char* file : {"default.json", "pressure.json"}) {
    const Scenario base = small_pools(repo_scenario(file));
    for (const std::uint64_t seed : kSeeds) {
      SCOPED_TRACE(std::string(file) + " seed " + std::to_string(seed));
      const auto hash_with = [&](WalkMode walk, engine::StorageMode storage) {
        Scenario s = with_storage(base, true, storage);
        s.walk = walk;
        return hash_after(s, seed, kFrames);
      };
      const std::uint64_t reference = hash_with(WalkMode::bitmap, engine::StorageMode::contiguous);
      EXPECT_EQ(reference, hash_with(WalkMode::swap_pop, engine::StorageMode::contiguous));
      EXPECT_EQ(reference, hash_with(WalkMode::slot_order, engine::StorageMode::contiguous));
      EXPECT_EQ(reference, hash_with(WalkMode::swap_pop, engine::StorageMode::stable));
      EXPECT_EQ(reference, hash_with(WalkMode::slot_order, engine::StorageMode::stable));
      EXPECT_EQ(reference, hash_after(with_storage(base, false, engine::StorageMode::contiguous), seed, kFrames));
    }
  }
}

TEST(Determinism, SwitchingWalkMidRunMatchesNeverSwitching) {
  const Scenario base = small_pools(repo_scenario("default.json"));
  const auto cycle_walks = [](Simulation& sim, int f) {
    Settings& s = sim.settings();
    if (f % 170 == 0) s.walk = static_cast<WalkMode>((static_cast<int>(s.walk) + 1) % 3);
    if (f % 410 == 0) s.pooling = !s.pooling;  // lists rebuilt when pooling comes back
  };
  for (const std::uint64_t seed : kSeeds) {
    EXPECT_EQ(hash_after(base, seed, kFrames), hash_after(base, seed, kFrames, cycle_walks)) << "seed " << seed;
  }
}

TEST(Determinism, WalkSwitchesAreReallyApplied) {
  Simulation sim(repo_scenario("default.json"), 1);
  EXPECT_EQ(sim.stats().pools[0].walk, WalkMode::slot_order) << "the default walk";
  sim.settings().walk = WalkMode::swap_pop;
  sim.step({});
  EXPECT_EQ(sim.applied_settings().walk, WalkMode::swap_pop);
  for (const StoreStats& pool : sim.stats().pools) EXPECT_EQ(pool.walk, WalkMode::swap_pop);
}

TEST(Determinism, StoragesReallyIterateInDifferentOrders) {
  // Guards the test above: if pooled and heap storage visited objects in the same order,
  // agreeing hashes would prove nothing. The packed layouts and heap share one order by
  // construction (dense arrays, a release moving the last entry into the hole), so the pooled
  // side walks contiguous storage in slot order.
  std::vector<std::uint64_t> order[2];
  for (const bool pooled : {true, false}) {
    Scenario s = repo_scenario("default.json");
    s.pooling = pooled;
    s.storage = engine::StorageMode::contiguous;
    Simulation sim(s, 1);
    sim.settings().autofire = true;
    for (int f = 0; f < 600; ++f) sim.step({});
    std::vector<engine::Sprite> sprites;
    collect_sprites(sim, sprites, 1.0f);  // storage order, as the stores visit them
    for (const engine::Sprite& sp : sprites) {
      if (sp.layer == 1 || sp.layer == 2)
        order[pooled ? 0 : 1].push_back(static_cast<std::uint64_t>(sp.x * 1000) ^ static_cast<std::uint64_t>(sp.y));
    }
  }
  ASSERT_EQ(order[0].size(), order[1].size());
  ASSERT_GT(order[0].size(), 10u);
  EXPECT_NE(order[0], order[1]);
}

TEST(Determinism, InitialCapacityDoesNotChangeTheGame) {
  const Scenario base = repo_scenario("default.json");
  for (const std::uint64_t seed : kSeeds)
    EXPECT_EQ(hash_after(base, seed, kFrames), hash_after(small_pools(base), seed, kFrames));
}

TEST(Determinism, SwitchingStorageMidRunMatchesNeverSwitching) {
  const Scenario base = small_pools(repo_scenario("default.json"));
  const auto switch_often = [](Simulation& sim, int f) {
    Settings& s = sim.settings();
    if (f % 200 == 0) s.pooling = !s.pooling;
    if (f % 300 == 0) {
      // contiguous -> stable -> packed -> contiguous: every switch between the three layouts
      s.storage = s.storage == engine::StorageMode::contiguous ? engine::StorageMode::stable
                  : s.storage == engine::StorageMode::stable   ? engine::StorageMode::packed
                  : s.storage == engine::StorageMode::packed   ? engine::StorageMode::packed_pages
                                                               : engine::StorageMode::contiguous;
    }
    if (f % 350 == 0) {
      for (PoolConfig& p : s.pools) p.growth_step = p.growth_step == 0 ? 40 : 0;
    }
  };
  for (const std::uint64_t seed : kSeeds) {
    EXPECT_EQ(hash_after(base, seed, kFrames), hash_after(base, seed, kFrames, switch_often)) << "seed " << seed;
  }
}

TEST(Determinism, SwitchesAreReallyApplied) {
  // Guards the test above: the switches it makes must reach the stores.
  Simulation sim(repo_scenario("default.json"), 1);
  sim.settings().pooling = false;
  sim.settings().storage = engine::StorageMode::stable;
  sim.step({});
  EXPECT_FALSE(sim.applied_settings().pooling);
  EXPECT_FALSE(sim.stats().pools[0].pooled);
  EXPECT_EQ(sim.applied_settings().storage, engine::StorageMode::stable);
}

}  // namespace
}  // namespace game

namespace game {
namespace {

// hold_fire.json (held fire, pooling off at frame 601, back on at 1201) is the same
// game at 1 and 2 update threads; its first 1,300 frames cross both switches.
TEST(Determinism, HoldFireScriptIsTheSameGameAtOneAndTwoThreads) {
  const auto play = [](std::uint32_t threads) {
    ScriptResult loaded = load_script(std::string(POOLSHOT_SCENARIO_DIR) + "/../scripts/hold_fire.json");
    EXPECT_TRUE(loaded.script) << loaded.error;
    ScriptPlayer script(*loaded.script);
    Simulation sim(test::repo_scenario("default.json"), 7);
    sim.settings().threads = threads;
    run_headless(sim, 1300, script);
    EXPECT_EQ(sim.stats().threads, threads);
    return sim.state_hash();
  };
  EXPECT_EQ(play(2), play(1));
}

}  // namespace
}  // namespace game
