// ObjectStore<T>: the same objects, the same lifetimes, the same limits in pooled and heap
// mode, and a migration between them that loses and duplicates nothing.
#include "sim/object_store.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace game {
namespace {

// Counts live instances, so a leak or a double destroy shows up as a wrong count.
struct Tracked {
  static inline int alive = 0;
  std::uint64_t seq = 0;
  int ttl = 0;
  Tracked(std::uint64_t s, int t) : seq(s), ttl(t) { ++alive; }
  Tracked(const Tracked& o) : seq(o.seq), ttl(o.ttl) { ++alive; }
  Tracked(Tracked&& o) noexcept : seq(o.seq), ttl(o.ttl) { ++alive; }
  Tracked& operator=(const Tracked&) = default;
  ~Tracked() { --alive; }
};

engine::GrowthPolicy policy(std::size_t initial, std::size_t max) {
  engine::GrowthPolicy p;
  p.initial_capacity = initial;
  p.max_capacity = max;
  return p;
}

std::vector<std::uint64_t> seqs(const ObjectStore<Tracked>& store) {
  std::vector<std::uint64_t> out;
  store.for_each([&](const Tracked& t) { out.push_back(t.seq); });
  std::sort(out.begin(), out.end());
  return out;
}

class ObjectStoreModes : public ::testing::TestWithParam<bool> {};

TEST_P(ObjectStoreModes, UpdateReleasesExactlyTheDead) {
  {
    ObjectStore<Tracked> store(policy(4, 1000), GetParam());
    for (std::uint64_t i = 0; i < 100; ++i) ASSERT_NE(store.spawn(Tracked(i, static_cast<int>(i % 5))), nullptr);
    EXPECT_EQ(Tracked::alive, 100);
    store.update([](Tracked& t) { return --t.ttl >= 0; });  // ttl 0 dies now
    EXPECT_EQ(store.size(), 80u);
    EXPECT_EQ(Tracked::alive, 80);
    for (std::uint64_t s : seqs(store)) EXPECT_NE(s % 5, 0u);
    EXPECT_EQ(store.stats().releases, 20u);
    EXPECT_EQ(store.stats().peak_live, 100u);
  }
  EXPECT_EQ(Tracked::alive, 0) << "the store must destroy what it holds";
}

TEST_P(ObjectStoreModes, RefusesPastMaxCapacityInBothModes) {
  ObjectStore<Tracked> store(policy(2, 10), GetParam());
  for (std::uint64_t i = 0; i < 10; ++i) ASSERT_NE(store.spawn(Tracked(i, 1)), nullptr);
  EXPECT_EQ(store.spawn(Tracked(99, 1)), nullptr);
  EXPECT_EQ(store.stats().refused_spawns, 1u);
  EXPECT_EQ(store.size(), 10u);
}

TEST_P(ObjectStoreModes, MigrationKeepsEveryObjectOnce) {
  ObjectStore<Tracked> store(policy(8, 100000), GetParam());
  for (std::uint64_t i = 0; i < 5000; ++i) store.spawn(Tracked(i, static_cast<int>(i % 7)));
  store.update([](Tracked& t) { return t.ttl != 3; });  // holes, so the pool has a free list
  const auto before = seqs(store);
  store.set_pooling(!GetParam());
  EXPECT_EQ(store.pooled(), !GetParam());
  EXPECT_EQ(seqs(store), before);
  EXPECT_EQ(Tracked::alive, static_cast<int>(before.size()));
  store.set_pooling(GetParam());
  EXPECT_EQ(seqs(store), before);
  EXPECT_EQ(Tracked::alive, static_cast<int>(before.size()));
  store.clear();
  EXPECT_EQ(Tracked::alive, 0);
}

TEST_P(ObjectStoreModes, StorageModeSwitchKeepsObjects) {
  ObjectStore<Tracked> store(policy(8, 100000), GetParam());
  for (std::uint64_t i = 0; i < 3000; ++i) store.spawn(Tracked(i, 0));
  const auto before = seqs(store);
  engine::GrowthPolicy stable = policy(8, 100000);
  stable.storage = engine::StorageMode::stable;
  stable.page_slots = 256;
  ASSERT_TRUE(store.set_policy(stable));
  EXPECT_EQ(store.policy().storage, engine::StorageMode::stable);
  EXPECT_EQ(seqs(store), before);
  store.clear();
}

INSTANTIATE_TEST_SUITE_P(PooledAndHeap, ObjectStoreModes, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& param_info) {
                           return param_info.param ? "Pooled" : "Heap";
                         });

TEST(ObjectStore, HeapModeCountsTheGrowthOfItsPointerArray) {
  engine::GrowthPolicy small_pages = policy(4, 1000);
  small_pages.page_slots = 64;
  ObjectStore<Tracked> store(small_pages, false);
  EXPECT_EQ(store.pool().policy().storage, engine::StorageMode::heap);
  std::uint64_t doublings = 0;
  for (std::size_t slots = store.capacity(); slots < 100; slots *= 2) ++doublings;
  for (std::uint64_t i = 0; i < 100; ++i) store.spawn(Tracked(i, 0));
  EXPECT_GE(store.stats().growth_events, 1u);
  EXPECT_LE(store.stats().growth_events, doublings) << "the pointer array at least doubles until 100 fit";
  EXPECT_GE(store.stats().capacity, 100u);
  EXPECT_GE(store.stats().bytes_held, 100 * sizeof(Tracked)) << "the objects' own allocations count";
  store.clear();
}

// make_room: a store whose burst outgrew it keeps room for twice that burst, grown between
// steps, so the same burst again takes no growth mid-step; in both modes (heap: pointer pages).
TEST_P(ObjectStoreModes, AStoreThatOutgrewItsStartKeepsRoomForItsLargestBurst) {
  engine::GrowthPolicy small_pages = policy(64, 1'000'000);
  small_pages.page_slots = 64;
  ObjectStore<Tracked> store(small_pages, GetParam());
  EXPECT_FALSE(store.make_room()) << "never outgrown: nothing to grow";
  for (std::uint64_t i = 0; i < 500; ++i) ASSERT_TRUE(!store.spawn_handle(Tracked(i, 0)).is_null());
  const std::uint64_t grown_mid_step = store.stats().growth_events;
  ASSERT_GT(grown_mid_step, 0u) << "a 500-object burst outgrows 64 slots";
  EXPECT_FALSE(store.make_room()) << "the end of the burst's own step: waits for a calm one";
  ASSERT_TRUE(store.make_room()) << "a calm step (no spawns) grows";
  EXPECT_EQ(store.stats().burst_peak, 500u);
  EXPECT_GE(store.capacity() - store.size(), room_ahead(500, 500));
  EXPECT_EQ(room_ahead(500, 500), 1000u);
  EXPECT_FALSE(store.make_room()) << "room enough: nothing more";
  const std::uint64_t before = store.stats().growth_events;
  for (std::uint64_t i = 0; i < 500; ++i) ASSERT_TRUE(!store.spawn_handle(Tracked(1000 + i, 0)).is_null());
  EXPECT_EQ(store.stats().growth_events, before) << "the same burst again fits in the room";
  EXPECT_EQ(store.size(), 1000u);
  EXPECT_EQ(Tracked::alive, 1000);
  store.clear();
}

// The room is topped up on a calm step, never right after a burst (the burst frames are the
// costliest already), even one that left less room than itself.
TEST_P(ObjectStoreModes, RoomIsToppedUpOnlyOnACalmStep) {
  engine::GrowthPolicy small_pages = policy(64, 1'000'000);
  small_pages.page_slots = 64;
  ObjectStore<Tracked> store(small_pages, GetParam());
  std::uint64_t id = 0;
  const auto step = [&](std::size_t spawns) {
    for (std::size_t i = 0; i < spawns; ++i) ASSERT_TRUE(!store.spawn_handle(Tracked(id++, 0)).is_null());
  };
  const auto free_slots = [&] { return store.capacity() - store.size(); };
  step(500);  // outgrows its 64 slots mid-step
  ASSERT_FALSE(store.make_room());
  ASSERT_TRUE(store.make_room());
  ASSERT_GE(free_slots(), room_ahead(500, 500));

  step(500);  // a burst as large as the largest: what is left still holds one more
  ASSERT_LT(free_slots(), room_ahead(store.size(), 500)) << "the room is short of its target";
  ASSERT_GE(free_slots(), 500u) << "but holds another burst";
  const std::size_t capacity = store.capacity();
  EXPECT_FALSE(store.make_room()) << "right after a burst: waits";
  EXPECT_EQ(store.capacity(), capacity);

  step(10);  // calm: a rise of at most half the largest burst
  EXPECT_TRUE(store.make_room()) << "a calm step tops the room up";
  EXPECT_GE(free_slots(), room_ahead(store.size(), 500));

  const std::size_t bigger = free_slots() - 100;  // a new largest burst that leaves less than itself
  step(bigger);
  ASSERT_LT(free_slots(), bigger);
  const std::size_t after_burst = store.capacity();
  EXPECT_FALSE(store.make_room()) << "another burst would not fit, but this step was one: waits";
  EXPECT_EQ(store.capacity(), after_burst);
  EXPECT_EQ(store.stats().burst_peak, bigger);
  step(0);
  EXPECT_TRUE(store.make_room()) << "the next calm step grows";
  EXPECT_GE(free_slots(), room_ahead(store.size(), bigger));
  EXPECT_EQ(Tracked::alive, static_cast<int>(store.size()));
  store.clear();
}

TEST_P(ObjectStoreModes, AStoreSizedUpFrontIsLeftAsItIs) {
  ObjectStore<Tracked> store(policy(20'000, 1'000'000), GetParam());
  const std::size_t capacity = store.capacity();
  for (std::uint64_t i = 0; i < 5000; ++i) ASSERT_TRUE(!store.spawn_handle(Tracked(i, 0)).is_null());
  EXPECT_FALSE(store.make_room()) << "the advisor's capacity is the room: no growth";
  EXPECT_EQ(store.capacity(), capacity);
  EXPECT_EQ(store.stats().growth_events, 0u);
  store.clear();
}

TEST(ObjectStore, PooledGrowthIsRecordedInTheAttachedGrowthLog) {
  ObjectStore<Tracked> store(policy(4, 1000), true);
  const std::uint64_t step = 7;
  GrowthLog log(step);
  store.attach_growth_log(log, PoolId::particles);
  for (std::uint64_t i = 0; i < 100; ++i) store.spawn(Tracked(i, 0));
  const auto& records = log.records();
  EXPECT_GE(records.size(), 4u);  // 4 -> 8 -> 16 -> 32 -> 64 -> 128
  EXPECT_EQ(store.stats().growth_events, records.size());
  for (const GrowthRecord& g : records) {
    EXPECT_FALSE(g.rebuild);
    EXPECT_EQ(g.pool, PoolId::particles);
    EXPECT_EQ(g.frame, step);
    EXPECT_GT(g.event.new_capacity, g.event.old_capacity);
  }
  store.clear();
}

TEST(ObjectStore, PoolComesBackFromHeapModeAtItsWarmCapacity) {
  ObjectStore<Tracked> store(policy(4, 100000), true);
  for (std::uint64_t i = 0; i < 1000; ++i) store.spawn(Tracked(i, 0));
  const std::size_t warm = store.capacity();
  store.update([](Tracked& t) { return t.seq < 10; });  // a quiet moment: 10 live
  store.set_pooling(false);
  EXPECT_GE(store.capacity(), warm) << "heap mode keeps a handle slot for each (whole pages of pointers)";
  store.set_pooling(true);
  const std::size_t back = store.capacity();
  EXPECT_GE(back, warm);
  store.set_pooling(false);  // once rounded up to whole pages, switching never ratchets it up again
  store.set_pooling(true);
  EXPECT_EQ(store.capacity(), back);
  const std::uint64_t growths = store.stats().growth_events;
  for (std::uint64_t i = 10; i < 1000; ++i) store.spawn(Tracked(i, 0));  // back to the old peak
  EXPECT_EQ(store.stats().growth_events, growths) << "refilling to the warm peak must not grow";
  EXPECT_EQ(Tracked::alive, 1000);
  store.clear();
  EXPECT_EQ(Tracked::alive, 0);
}

// Every walk of a pooled store (bitmap, swap-pop list, slot-order list) releases exactly the
// dead, and switching walks mid-churn, or pooling off and on, keeps the list equal to the pool.
class ObjectStoreWalks : public ::testing::TestWithParam<WalkMode> {};

TEST_P(ObjectStoreWalks, ChurnReleasesExactlyTheDeadAndKeepsTheListInStep) {
  {
    ObjectStore<Tracked> store(policy(16, 100000), true, GetParam());
    std::uint64_t next = 0;
    for (int round = 0; round < 30; ++round) {
      for (; store.size() < 2000; ++next) store.spawn(Tracked(next, static_cast<int>(next * 2654435761u % 5)));
      const std::size_t before = store.size();
      std::size_t dying = 0;
      store.update([&](Tracked& t) {
        const bool dies = --t.ttl < 0;
        dying += dies ? 1 : 0;
        return !dies;
      });
      ASSERT_EQ(store.size(), before - dying);
      ASSERT_EQ(Tracked::alive, static_cast<int>(store.size()));
      if (store.walks_list()) {  // pooled: heap mode walks its own pointers
        ASSERT_TRUE(store.active_list().matches(store.pool_for_tests()));
      }
      if (round == 10) store.set_pooling(false);
      if (round == 12) store.set_pooling(true);
    }
    EXPECT_EQ(store.stats().failed_releases, 0u);
    EXPECT_EQ(store.stats().walk, GetParam());
    EXPECT_GT(store.stats().walk_ns_per_object, 0.0);
  }
  EXPECT_EQ(Tracked::alive, 0);
}

TEST_P(ObjectStoreWalks, SwitchingToEveryOtherWalkKeepsEveryObject) {
  ObjectStore<Tracked> store(policy(16, 100000), true, GetParam());
  for (std::uint64_t i = 0; i < 3000; ++i) store.spawn(Tracked(i, static_cast<int>(i % 4)));
  store.update([](Tracked& t) { return --t.ttl >= 0; });
  for (std::uint64_t i = 3000; i < 3500; ++i) store.spawn(Tracked(i, 2));  // queued in slot order
  const auto before = seqs(store);
  for (WalkMode next : {WalkMode::bitmap, WalkMode::swap_pop, WalkMode::slot_order}) {
    store.set_walk(next);
    EXPECT_EQ(store.walk(), next);
    if (next != WalkMode::bitmap) {
      EXPECT_TRUE(store.active_list().matches(store.pool_for_tests()));
    }
    int visited = 0;
    store.update([&](Tracked&) { return ++visited > 0; });
    EXPECT_EQ(visited, static_cast<int>(before.size()));
    EXPECT_EQ(seqs(store), before);
  }
  EXPECT_TRUE(store.active_list().matches(store.pool_for_tests()));
}

// A packed store walks its dense array whatever walk is chosen: no list is kept over it
// (walking one would visit the dense positions at random), and leaving packed lists the
// live slots again, so the chosen list walk resumes in step with the pool.
TEST_P(ObjectStoreWalks, APackedStoreWalksItsDenseArrayAndTheListComesBackAfter) {
  ObjectStore<Tracked> store(policy(16, 100000), true, GetParam());
  for (std::uint64_t i = 0; i < 2000; ++i) store.spawn(Tracked(i, static_cast<int>(i % 3)));
  const bool lists = GetParam() != WalkMode::bitmap;
  EXPECT_EQ(store.walks_list(), lists);
  engine::GrowthPolicy next = store.policy();
  next.storage = engine::StorageMode::packed;
  ASSERT_TRUE(store.set_policy(next));
  EXPECT_FALSE(store.walks_list());
  EXPECT_TRUE(store.active_list().empty());
  EXPECT_EQ(store.walk(), GetParam()) << "the choice is kept";
  for (std::uint64_t i = 2000; i < 2500; ++i) store.spawn(Tracked(i, 1));  // not listed: no list
  EXPECT_TRUE(store.active_list().empty());
  store.update([](Tracked& t) { return --t.ttl >= 0; });
  EXPECT_EQ(store.size(), 2500u - 667u);
  next.storage = engine::StorageMode::contiguous;
  ASSERT_TRUE(store.set_policy(next));
  EXPECT_EQ(store.walks_list(), lists);
  if (lists) {
    EXPECT_TRUE(store.active_list().matches(store.pool_for_tests()));
  }
  store.update([](Tracked& t) { return --t.ttl >= 0; });
  EXPECT_EQ(store.size(), 2500u - 667u - 1167u);
  if (lists) {
    EXPECT_TRUE(store.active_list().matches(store.pool_for_tests()));
  }
}

INSTANTIATE_TEST_SUITE_P(Walks, ObjectStoreWalks,
                         ::testing::Values(WalkMode::bitmap, WalkMode::swap_pop, WalkMode::slot_order),
                         [](const ::testing::TestParamInfo<WalkMode>& walk) {
                           return std::string(walk_name(walk.param));
                         });

// A spawn batch takes one chunk per ObjectStore::kObjectsPerTask objects, up to chunk_count(team):
// a small batch is built inline on the calling thread (a run on the team cost more than it saved
// there), a large one is shared out; both end as spawns one at a time would.
struct Spark {
  std::uint64_t seq = 0;
  std::thread::id built_on;
};

TEST(ObjectStore, ASmallSpawnBatchIsBuiltInlineAndALargeOneOnTheTeam) {
  constexpr std::size_t per_task = ObjectStore<Spark>::kObjectsPerTask;
  engine::WorkerTeam team(2);
  EXPECT_EQ(ObjectStore<Spark>::chunks_for(0, team), 1u);
  EXPECT_EQ(ObjectStore<Spark>::chunks_for(2 * per_task - 1, team), 1u);
  EXPECT_EQ(ObjectStore<Spark>::chunks_for(2 * per_task, team), 2u);
  EXPECT_EQ(ObjectStore<Spark>::chunk_count(team), 8u);                 // more chunks than threads: claimed as they go
  EXPECT_EQ(ObjectStore<Spark>::chunks_for(100 * per_task, team), 8u);  // never more than chunk_count
  EXPECT_EQ(ObjectStore<Spark>::chunk_count(engine::WorkerTeam(1)), 1u);
  engine::WorkerTeam eight(8);
  EXPECT_EQ(ObjectStore<Spark>::chunks_for(3 * per_task + 5, eight), 3u);

  ObjectStore<Spark> store(policy(8 * per_task, 8 * per_task), true, WalkMode::bitmap);
  const std::thread::id caller = std::this_thread::get_id();
  const auto make = [](std::size_t i) noexcept { return Spark{i, std::this_thread::get_id()}; };
  const std::size_t small = per_task + per_task / 2;
  ASSERT_EQ(store.spawn_chunked(small, team, make), small);
  std::size_t on_caller = 0;
  store.for_each([&](const Spark& s) { on_caller += s.built_on == caller ? 1u : 0u; });
  EXPECT_EQ(on_caller, small) << "a batch under two tasks' worth is built inline";

  const std::size_t large = 4 * per_task;
  ASSERT_EQ(store.spawn_chunked(large, team, make), large);
  std::vector<std::uint64_t> seen;
  store.for_each([&](const Spark& s) { seen.push_back(s.seq); });
  ASSERT_EQ(seen.size(), small + large);
  // Each batch's objects are make(0..count): every seq below `small` twice, the rest once (the
  // expected list is built in ascending order).
  std::sort(seen.begin(), seen.end());
  std::vector<std::uint64_t> expected;
  for (std::uint64_t i = 0; i < large; ++i) {
    expected.push_back(i);
    if (i < small) expected.push_back(i);
  }
  EXPECT_EQ(seen, expected);
}

}  // namespace
// A storage-mode switch migrates every object into a new layout: labelled a rebuild, and the
// growth count stays where it was (before, each switch added one "N -> N" growth row per pool).
TEST(ObjectStore, StorageSwitchIsARebuildNotAGrowth) {
  ObjectStore<Tracked> store(policy(4, 100000), true);
  const std::uint64_t step = 0;
  GrowthLog log(step);
  store.attach_growth_log(log, PoolId::bullets);
  const auto& records = log.records();
  for (std::uint64_t i = 0; i < 100; ++i) store.spawn(Tracked(i, 0));
  const std::uint64_t growths = store.stats().growth_events;
  const std::size_t growth_calls = records.size();
  std::uint64_t switches = 0;
  for (engine::StorageMode mode :
       {engine::StorageMode::packed, engine::StorageMode::stable, engine::StorageMode::contiguous}) {
    engine::GrowthPolicy next = store.policy();
    next.storage = mode;
    ASSERT_TRUE(store.set_policy(next));
    ++switches;
    EXPECT_EQ(store.stats().growth_events, growths) << engine::storage_mode_name(mode);
    EXPECT_EQ(store.stats().rebuilds, switches) << engine::storage_mode_name(mode);
  }
  ASSERT_EQ(records.size(), growth_calls + 3);
  for (std::size_t i = growth_calls; i < records.size(); ++i) EXPECT_TRUE(records[i].rebuild) << "record " << i;
  EXPECT_EQ(store.size(), 100u);
}

// Switching pooling off rebuilds the pool into its heap layout, and back on into the pooled
// one, each at the capacity the pool had. Those are rebuilds, not growths: the growth log
// records them labelled, growth_events stays where it was.
TEST(ObjectStore, PoolingSwitchBackIsARebuildNotAGrowth) {
  ObjectStore<Tracked> store(policy(4, 100000), true);
  const std::uint64_t step = 0;
  GrowthLog log(step);
  store.attach_growth_log(log, PoolId::bullets);
  const auto& records = log.records();
  for (std::uint64_t i = 0; i < 100; ++i) store.spawn(Tracked(i, 0));
  const std::uint64_t growths = store.stats().growth_events;
  ASSERT_GT(growths, 0u);
  const std::size_t growth_calls = records.size();
  for (int round = 1; round <= 3; ++round) {
    store.set_pooling(false);
    store.set_pooling(true);
    EXPECT_EQ(store.stats().growth_events, growths) << "round " << round;
    EXPECT_EQ(store.stats().rebuilds, static_cast<std::uint64_t>(2 * round));
  }
  ASSERT_EQ(records.size(), growth_calls + 6);
  for (std::size_t i = 0; i < records.size(); ++i) EXPECT_EQ(records[i].rebuild, i >= growth_calls) << "record " << i;
  store.clear();
}

// The same through the simulation: one rebuild row per pool and switch in the growth log, no
// growth counted.
TEST(ObjectStore, SimulationLogsOneRebuildPerPoolAndCountsNoGrowth) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  for (int f = 0; f < 120; ++f) sim.step({});
  const std::uint64_t growths = sim.stats().growth_events;
  const std::size_t rows = sim.growth_log().size();
  sim.settings().pooling = false;
  sim.step({});
  sim.settings().pooling = true;
  const std::uint64_t growths_before_switch_back = sim.stats().growth_events;  // heap steps may grow arrays
  sim.step({});
  const SimStats s = sim.stats();
  EXPECT_EQ(s.rebuilds, 2 * kPoolCount) << "every pool was switched off and back on";
  EXPECT_GE(growths_before_switch_back, growths);
  EXPECT_EQ(s.growth_events, growths_before_switch_back) << "the switch back counts no growth";
  std::size_t rebuild_rows = 0;
  for (std::size_t i = rows; i < sim.growth_log().size(); ++i) rebuild_rows += sim.growth_log()[i].rebuild ? 1u : 0u;
  EXPECT_EQ(rebuild_rows, 2 * kPoolCount);
}

}  // namespace game
