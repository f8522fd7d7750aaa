// "Any T works" for a T that can be neither copied nor moved: it works
// wherever no object has to move (stable storage, a contiguous pool that does not grow while
// objects live, ConcurrentPool), and what would move one is refused, never compiled wrong.
#include <engine/pool/concurrent_pool.hpp>
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <type_traits>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

struct Pinned {
  explicit Pinned(int v) : value(v), tracked(v) {}
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  std::atomic<int> value;
  std::mutex lock;
  Tracked tracked;
};
static_assert(!std::is_move_constructible_v<Pinned> && !std::is_copy_constructible_v<Pinned>);

using Immovable = LifetimeChecked<>;

TEST_F(Immovable, StableStorageGrowsShrinksClearsAndErases) {
  {
    VectorPool<Pinned> pool(policy(StorageMode::stable, 0, 0, kDefaultMaxCapacity, 64));
    std::vector<PoolHandle> handles;
    std::vector<const Pinned*> addresses;
    for (int i = 0; i < 1000; ++i) {
      handles.push_back(*pool.emplace(i));
      addresses.push_back(pool.get(handles.back()));
    }
    EXPECT_GT(pool.stats().growth_events, 10u);
    for (std::size_t i = 0; i < handles.size(); ++i) EXPECT_EQ(pool.get(handles[i]), addresses[i]);
    EXPECT_EQ(pool.erase_if([](const Pinned& p) { return p.value % 2 == 0; }), 500u);
    for (std::size_t i = 1; i < handles.size(); i += 2) EXPECT_TRUE(pool.release(handles[i]));
    pool.shrink_to_fit();  // stable: drops empty pages, moves nothing
    EXPECT_TRUE(pool.reserve(2000));
    for (int i = 0; i < 10; ++i) pool.emplace(i);
    pool.release_later(pool.handle_at(0));
    pool.flush_releases();
    int sum = 0;
    for (Pinned& p : pool) sum += p.value;
    EXPECT_GT(sum, 0);
    pool.clear();
    EXPECT_TRUE(pool.validate());
    for (int i = 0; i < 10; ++i) pool.emplace(i);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST_F(Immovable, ContiguousWorksWithinItsCapacityAndRefusesToMoveLiveObjects) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  VectorPool<Pinned> pool(policy(StorageMode::contiguous, 8));
  EXPECT_TRUE(pool.reserve(64)) << "empty: nothing to move";
  for (int i = 0; i < 64; ++i) ASSERT_TRUE(pool.emplace(i).has_value());
  GrowthPolicy stable = pool.policy();
  stable.storage = StorageMode::stable;
  if (ENGINE_POOL_DEBUG) {
    EXPECT_DEATH(pool.emplace(64), "can be neither moved nor copied");
    EXPECT_DEATH(pool.reserve(128), "can be neither moved nor copied");
    EXPECT_DEATH(pool.set_policy(stable), "can be neither moved nor copied");
  } else {
    EXPECT_FALSE(pool.emplace(64).has_value());
    EXPECT_FALSE(pool.reserve(128));
    EXPECT_FALSE(pool.set_policy(stable));
    EXPECT_EQ(pool.policy().storage, StorageMode::contiguous);
    pool.release(pool.handle_at(63));
    pool.shrink_to_fit();  // would move nothing here, but the contiguous trim is refused while objects live
    EXPECT_EQ(pool.capacity(), 64u);
  }
  EXPECT_EQ(pool.size(), 64u - (ENGINE_POOL_DEBUG ? 0u : 1u));
  EXPECT_TRUE(pool.validate());
  pool.clear();
  EXPECT_TRUE(pool.set_policy(stable)) << "empty again: the layout may change";
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(pool.emplace(i).has_value());
  pool.clear();
}

TEST_F(Immovable, ConcurrentPoolHoldsThem) {
  {
    engine::ConcurrentPool<Pinned> pool(engine::ConcurrentPoolConfig{64, 0, 4096});
    std::vector<PoolHandle> handles;
    for (int i = 0; i < 1000; ++i) handles.push_back(*pool.emplace(i));
    for (std::size_t i = 0; i < handles.size(); i += 2) EXPECT_TRUE(pool.release(handles[i]));
    EXPECT_EQ(pool.get(handles[1])->value, 1);
    pool.clear();
    pool.emplace(5);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

}  // namespace
}  // namespace pool_test
