// VectorPool<T>::grow_ahead() and prefault(): room made before a burst needs it. What they must
// never do is change the pool's answers: the same slots, handles and walk order as a pool that
// grew only when full, every object alive with its value, validate() true. And what they
// promise: grow_ahead() leaves at least the free slots asked for (the cap allowing) and refuses
// quietly mid-pass; prefault() stays within its budget, writes nothing, and stops once every
// never-used slot is backed.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

constexpr std::size_t kEverything = std::numeric_limits<std::size_t>::max();

class Room : public LifetimeChecked<::testing::TestWithParam<StorageMode>> {};

TEST_P(Room, GrowAheadLeavesTheFreeSlotsAskedForAndKeepsEveryObject) {
  VectorPool<Tracked> pool(policy(GetParam(), 8));
  std::vector<GrowthEvent> events;
  pool.set_growth_listener([&](const GrowthEvent& e) { events.push_back(e); });
  std::map<PoolHandle, int, HandleLess> live;
  for (int v = 0; v < 6; ++v) live.emplace(*pool.emplace(v), v);
  const std::size_t before = pool.capacity();
  EXPECT_FALSE(pool.grow_ahead(pool.capacity() - pool.size())) << "room enough already: nothing to do";
  EXPECT_EQ(pool.capacity(), before);
  EXPECT_TRUE(events.empty());

  ASSERT_TRUE(pool.grow_ahead(300));
  EXPECT_GE(pool.capacity() - pool.size(), 300u);
  ASSERT_EQ(events.size(), 1u) << "announced once, like any growth";
  EXPECT_EQ(events[0].old_capacity, before);
  EXPECT_EQ(events[0].new_capacity, pool.capacity());
  if (is_paged_storage(GetParam())) {
    EXPECT_FALSE(events[0].relocated) << "paged: pages added, nothing moved";
  }
  ASSERT_TRUE(pool.validate());
  ASSERT_EQ(pool.size(), live.size());
  for (const auto& [h, v] : live) {
    ASSERT_NE(pool.get(h), nullptr);
    EXPECT_EQ(pool.get(h)->value(), v);
  }
  // The room is used without another growth.
  const std::size_t grown = pool.capacity();
  while (pool.size() < grown) ASSERT_TRUE(pool.emplace(1));
  EXPECT_EQ(pool.capacity(), grown);
  EXPECT_EQ(events.size(), 1u);
}

TEST_P(Room, GrowAheadStopsAtTheCap) {
  VectorPool<Tracked> pool(policy(GetParam(), 8, 0, 200));
  ASSERT_TRUE(pool.emplace(1));
  EXPECT_TRUE(pool.grow_ahead(10'000));
  EXPECT_EQ(pool.capacity(), 200u) << "as far as the cap allows";
  EXPECT_FALSE(pool.grow_ahead(10'000)) << "at the cap: nothing more";
  EXPECT_TRUE(pool.validate());
}

TEST_P(Room, GrowAheadIsRefusedQuietlyInsideAPass) {
  VectorPool<Tracked> pool(policy(GetParam(), 8));
  for (int v = 0; v < 8; ++v) ASSERT_TRUE(pool.emplace(v));
  const std::size_t before = pool.capacity();
  int visited = 0;
  pool.for_each([&](Tracked&) {
    ++visited;
    EXPECT_FALSE(pool.grow_ahead(1000)) << "a hint: refused mid-pass, never an assertion";
  });
  EXPECT_EQ(visited, 8);
  EXPECT_EQ(pool.capacity(), before);
  EXPECT_TRUE(pool.grow_ahead(1000)) << "and granted after it";
}

// The game's determinism rests on this: growing early hands out exactly the slots, handles
// and walk order that growing when full does.
TEST_P(Room, GrowingAheadHandsOutTheSameSlotsAsGrowingWhenFull) {
  VectorPool<Tracked> lazy(policy(GetParam(), 8));
  VectorPool<Tracked> ahead(policy(GetParam(), 8));
  std::mt19937 rng(27);
  std::vector<PoolHandle> handles_lazy, handles_ahead;  // generations start at a per-pool seed: compare indices
  for (int step = 0; step < 60; ++step) {
    ahead.grow_ahead(64 + ahead.size() / 8);
    ASSERT_EQ(ahead.prefault(4096) <= 4096, true);
    const int spawns = static_cast<int>(rng() % 90);
    for (int k = 0; k < spawns; ++k) {
      const int value = step * 1000 + k;
      const auto a = lazy.emplace(value);
      const auto b = ahead.emplace(value);
      ASSERT_TRUE(a && b);
      ASSERT_EQ(a->index, b->index);
      handles_lazy.push_back(*a);
      handles_ahead.push_back(*b);
    }
    const auto doomed = [&](const Tracked& t) { return (t.value() * 7 + step) % 5 < 2; };
    ASSERT_EQ(lazy.erase_if(doomed), ahead.erase_if(doomed));
    std::vector<int> order_lazy, order_ahead;
    lazy.for_each([&](const Tracked& t) { order_lazy.push_back(t.value()); });
    ahead.for_each([&](const Tracked& t) { order_ahead.push_back(t.value()); });
    ASSERT_EQ(order_lazy, order_ahead) << "step " << step;
  }
  for (std::size_t k = 0; k < handles_lazy.size(); ++k) {
    ASSERT_EQ(lazy.contains(handles_lazy[k]), ahead.contains(handles_ahead[k]));
  }
  EXPECT_TRUE(ahead.validate());
  EXPECT_GE(ahead.capacity(), lazy.capacity());
}

TEST_P(Room, PrefaultStaysInItsBudgetAndEndsWhenEverythingIsBacked) {
  VectorPool<Tracked> pool(policy(GetParam(), 4096));
  std::vector<PoolHandle> handles;
  for (int v = 0; v < 100; ++v) handles.push_back(*pool.emplace(v));
  EXPECT_EQ(pool.prefault(0), 0u);
  const std::size_t first = pool.prefault(1000);
  EXPECT_LE(first, 1000u);
  std::size_t total = first;
  for (std::size_t step = 0; step < 10'000; ++step) {
    const std::size_t asked = pool.prefault(64 * 1024);
    EXPECT_LE(asked, 64u * 1024);
    total += asked;
    if (asked == 0) break;
  }
  EXPECT_EQ(pool.prefault(kEverything), 0u) << "every never-used slot is backed: nothing left to ask for";
  // Where the OS backs memory at all, a pool with ~4,000 never-used slots had some to back.
  if (first != 0) {
    EXPECT_GT(total, 4000u);
  }
  // Backing writes nothing: every object is as it was.
  ASSERT_TRUE(pool.validate());
  for (std::size_t k = 0; k < handles.size(); ++k) EXPECT_EQ(pool.get(handles[k])->value(), static_cast<int>(k));
  // New room is new memory to back.
  ASSERT_TRUE(pool.grow_ahead(pool.capacity()));
  if (first != 0) {
    EXPECT_GT(pool.prefault(kEverything), 0u);
  }
  EXPECT_EQ(pool.prefault(kEverything), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllModes, Room, ::testing::ValuesIn(kAllModes), mode_name);

}  // namespace
}  // namespace pool_test
