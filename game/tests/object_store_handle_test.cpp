// ObjectStore handles: spawn_handle / get behave the same pooled and heap. A handle whose
// object died is refused (and counted) even after its slot went to another; set_pooling (the
// pool's switch to and from its heap layout) and set_policy's storage changes keep every
// handle as it is: nothing to translate, nothing to patch.
#include "sim/object_store.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace game {
namespace {

struct Thing {
  std::uint64_t seq = 0;
  bool dead = false;
};

engine::GrowthPolicy policy(std::size_t initial, std::size_t max) {
  engine::GrowthPolicy p;
  p.initial_capacity = initial;
  p.max_capacity = max;
  return p;
}

// Kills the objects whose seq `dies` says, in the store's two-phase update.
template <class Dies>
void kill(ObjectStore<Thing>& store, Dies&& dies) {
  store.update([&](Thing& t) { return !dies(t.seq); });
}

class StoreHandles : public ::testing::TestWithParam<bool> {};

TEST_P(StoreHandles, LiveHandleFindsItsObjectAndDeadOneIsRefusedAndCounted) {
  ObjectStore<Thing> store(policy(4, 1000), GetParam());
  std::vector<engine::PoolHandle> handles;
  for (std::uint64_t i = 0; i < 100; ++i) handles.push_back(store.spawn_handle({i}));
  for (std::uint64_t i = 0; i < 100; ++i) {
    ASSERT_NE(store.get(handles[i]), nullptr);
    EXPECT_EQ(store.get(handles[i])->seq, i);
  }
  kill(store, [](std::uint64_t seq) { return seq % 3 == 0; });
  const std::uint64_t stale_before = store.stats().stale_gets;
  std::uint64_t refused = 0;
  for (std::uint64_t i = 0; i < 100; ++i) {
    const Thing* t = store.get(handles[i]);
    EXPECT_EQ(t == nullptr, i % 3 == 0) << i;
    EXPECT_EQ(store.contains(handles[i]), i % 3 != 0) << i;
    if (t != nullptr) {
      EXPECT_EQ(t->seq, i);
    } else {
      ++refused;
    }
  }
  EXPECT_EQ(refused, 34u);
  EXPECT_EQ(store.stats().stale_gets - stale_before, refused) << "each refusal is counted; contains() counts none";
  EXPECT_EQ(store.get(engine::PoolHandle{}), nullptr) << "the null handle is refused";
}

TEST_P(StoreHandles, ReusedSlotGetsANewGenerationAndTheOldHandleStaysRefused) {
  ObjectStore<Thing> store(policy(8, 1000), GetParam());
  for (std::uint64_t i = 0; i < 5; ++i) store.spawn_handle({i});
  const engine::PoolHandle a = store.spawn_handle({100});
  for (std::uint64_t i = 5; i < 10; ++i) store.spawn_handle({i});
  kill(store, [](std::uint64_t seq) { return seq == 100; });
  const engine::PoolHandle b = store.spawn_handle({200});  // LIFO: the newest hole is a's
  EXPECT_EQ(b.index, a.index) << "the slot is reused";
  EXPECT_NE(b.generation, a.generation) << "with a new generation";
  EXPECT_EQ(store.get(a), nullptr) << "a's handle never reaches the newcomer";
  ASSERT_NE(store.get(b), nullptr);
  EXPECT_EQ(store.get(b)->seq, 200u);
}

TEST_P(StoreHandles, SetPoolingBothWaysKeepsEveryHandle) {
  ObjectStore<Thing> store(policy(4, 10000), GetParam());
  std::vector<engine::PoolHandle> handles;
  for (std::uint64_t i = 0; i < 500; ++i) handles.push_back(store.spawn_handle({i}));
  kill(store, [](std::uint64_t seq) { return seq % 7 == 0; });  // holes, and handles that are stale
  for (const bool pooled : {!GetParam(), GetParam(), !GetParam()}) {
    SCOPED_TRACE(pooled ? "to pooled" : "to heap");
    store.set_pooling(pooled);
    ASSERT_EQ(store.pooled(), pooled);
    EXPECT_EQ(store.pool().policy().storage, pooled ? engine::StorageMode::contiguous : engine::StorageMode::heap);
    for (std::uint64_t i = 0; i < 500; ++i) {
      const Thing* t = store.get(handles[i]);
      if (i % 7 == 0) {
        EXPECT_EQ(t, nullptr) << i << ": a dead object's handle stays refused";
      } else {
        ASSERT_NE(t, nullptr) << i;
        EXPECT_EQ(t->seq, i);
      }
    }
  }
  // New objects in the new storage get handles of their own, which work too.
  const engine::PoolHandle fresh = store.spawn_handle({9999});
  ASSERT_NE(store.get(fresh), nullptr);
  EXPECT_EQ(store.get(fresh)->seq, 9999u);
}

TEST_P(StoreHandles, ForEachHandleGivesTheHandlesGetAccepts) {
  ObjectStore<Thing> store(policy(4, 1000), GetParam());
  for (std::uint64_t i = 0; i < 50; ++i) store.spawn({i});  // plain spawns: handles come later
  kill(store, [](std::uint64_t seq) { return seq % 4 == 1; });
  std::size_t seen = 0;
  store.for_each_handle([&](engine::PoolHandle h, Thing& t) {
    ++seen;
    ASSERT_EQ(store.get(h), &t);
  });
  EXPECT_EQ(seen, store.size());
  store.spawn({777});
  bool found = false;
  store.for_each_handle([&](engine::PoolHandle h, Thing& t) { found = found || (t.seq == 777 && store.get(h) == &t); });
  EXPECT_TRUE(found);
}

TEST_P(StoreHandles, StorageModeChangesKeepHandles) {
  ObjectStore<Thing> store(policy(8, 100000), GetParam());
  std::vector<engine::PoolHandle> handles;
  for (std::uint64_t i = 0; i < 3000; ++i) handles.push_back(store.spawn_handle({i}));
  engine::GrowthPolicy stable = policy(8, 100000);
  stable.storage = engine::StorageMode::stable;
  stable.page_slots = 256;
  for (const engine::GrowthPolicy& p : {stable, policy(8, 100000), stable}) {
    ASSERT_TRUE(store.set_policy(p));
    for (std::uint64_t i = 0; i < 3000; i += 37) {
      ASSERT_NE(store.get(handles[i]), nullptr) << i;
      EXPECT_EQ(store.get(handles[i])->seq, i);
    }
  }
}

TEST_P(StoreHandles, ClearMakesEveryHandleStale) {
  ObjectStore<Thing> store(policy(4, 1000), GetParam());
  std::vector<engine::PoolHandle> handles;
  for (std::uint64_t i = 0; i < 20; ++i) handles.push_back(store.spawn_handle({i}));
  store.clear();
  for (std::uint64_t i = 0; i < 20; ++i) store.spawn_handle({100 + i});  // the same slots again
  for (const engine::PoolHandle h : handles) EXPECT_EQ(store.get(h), nullptr);
}

TEST_P(StoreHandles, RefusedAtMaxCapacityGivesTheNullHandle) {
  ObjectStore<Thing> store(policy(2, 3), GetParam());
  for (std::uint64_t i = 0; i < 3; ++i) EXPECT_FALSE(store.spawn_handle({i}).is_null());
  EXPECT_TRUE(store.spawn_handle({3}).is_null());
  EXPECT_EQ(store.stats().refused_spawns, 1u);
}

INSTANTIATE_TEST_SUITE_P(PooledAndHeap, StoreHandles, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& param_info) {
                           return param_info.param ? "Pooled" : "Heap";
                         });

TEST(StoreHandlesHeap, SlotsAreReusedWithANewGenerationAcrossAPooledInterlude) {
  // Heap mode keeps the generational check heap code must add (the pool's slot table: index +
  // generation, a LIFO free list), also across a pooled interlude.
  ObjectStore<Thing> store(policy(4, 1000), false);
  const engine::PoolHandle first = store.spawn_handle({1});
  kill(store, [](std::uint64_t) { return true; });
  const engine::PoolHandle second = store.spawn_handle({2});
  EXPECT_EQ(second.index, first.index);
  EXPECT_NE(second.generation, first.generation);
  EXPECT_EQ(store.get(first), nullptr);
  EXPECT_EQ(store.stats().stale_gets, 1u);
  store.set_pooling(true);
  ASSERT_NE(store.get(second), nullptr) << "the live object's handle survives the switch";
  kill(store, [](std::uint64_t) { return true; });
  store.set_pooling(false);
  const engine::PoolHandle third = store.spawn_handle({3});
  for (const engine::PoolHandle old : {first, second}) {
    EXPECT_EQ(store.get(old), nullptr) << "a handle from before the interlude never reaches a new object";
  }
  EXPECT_EQ(store.get(third)->seq, 3u);
}

}  // namespace
}  // namespace game
