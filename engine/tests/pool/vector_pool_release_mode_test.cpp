// VectorPool<T> with debug checks off: every misuse is still refused safely and counted.
#define ENGINE_POOL_DEBUG 0
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

static_assert(ENGINE_POOL_DEBUG == 0);

class ReleaseMode : public LifetimeChecked<::testing::TestWithParam<StorageMode>> {};

TEST_P(ReleaseMode, DoubleStaleAndForeignReleasesAreRefusedAndCounted) {
  VectorPool<Tracked> pool(policy(GetParam()));
  VectorPool<Tracked> other(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  EXPECT_TRUE(pool.release(h));
  EXPECT_FALSE(pool.release(h));  // double
  const PoolHandle reused = *pool.emplace(2);
  EXPECT_FALSE(pool.release(h));  // stale: its slot holds someone else now
  EXPECT_EQ(pool.get(reused)->value(), 2);
  const PoolHandle foreign = *other.emplace(3);
  EXPECT_FALSE(pool.release(foreign));
  EXPECT_FALSE(pool.release(PoolHandle{}));
  EXPECT_FALSE(pool.release(PoolHandle{reused.index, reused.generation + 1}));  // forged even generation
  EXPECT_EQ(pool.stats().failed_releases, 5u);
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_EQ(Lifetimes::live(), 2);
}

TEST_P(ReleaseMode, ReleaseInsideForEachIsRefusedAndTheObjectSurvives) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  pool.for_each([&](Tracked&) { EXPECT_FALSE(pool.release(h)); });
  EXPECT_EQ(pool.erase_if([&](PoolHandle, Tracked&) { return !pool.release(h); }), 1u);
  EXPECT_EQ(pool.stats().refused_during_iteration, 2u);
  EXPECT_FALSE(pool.contains(h));  // the erase_if itself did release it, after the pass
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST_P(ReleaseMode, OtherMutationsInsideForEachAreRefused) {
  VectorPool<Tracked> pool(policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 5; ++i) handles.push_back(*pool.emplace(i));
  pool.release_later(handles[0]);
  const std::size_t capacity = pool.capacity();
  bool once = false;
  pool.for_each([&](Tracked&) {
    if (once) return;
    once = true;
    EXPECT_EQ(pool.flush_releases(), 0u);
    pool.clear();
    pool.shrink_to_fit();
    EXPECT_FALSE(pool.set_policy(GrowthPolicy{}));
    EXPECT_EQ(pool.erase_if([](Tracked&) { return true; }), 0u);
  });
  EXPECT_EQ(pool.stats().refused_during_iteration, 5u);
  EXPECT_EQ(pool.size(), 5u);
  EXPECT_EQ(pool.capacity(), capacity);
  EXPECT_EQ(pool.flush_releases(), 1u);  // the queue survived the refused flush
  EXPECT_EQ(pool.size(), 4u);
}

TEST_P(ReleaseMode, StaleReleaseLaterIsSkippedAtFlushAndCounted) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  pool.release(h);
  pool.release_later(h);
  pool.release_later(PoolHandle{});
  EXPECT_EQ(pool.flush_releases(), 0u);
  EXPECT_EQ(pool.stats().failed_releases, 2u);
}

TEST_P(ReleaseMode, EmptyPoolPtrDereferenceIsNotCheckedButGetIsSafe) {
  PoolPtr<Tracked> empty;
  EXPECT_EQ(empty.get(), nullptr);
  VectorPool<Tracked> pool(policy(GetParam()));
  PoolPtr<Tracked> p = pool.acquire(1);
  pool.release(p.handle());
  EXPECT_EQ(p.get(), nullptr);
  p.reset();  // its release is refused (already gone) and counted, not a double destruction
  EXPECT_EQ(pool.stats().failed_releases, 1u);
  EXPECT_EQ(Lifetimes::live(), 0);
}

INSTANTIATE_TEST_SUITE_P(AllModes, ReleaseMode, ::testing::ValuesIn(kAllModes), mode_name);

TEST(ReleaseModeContiguous, RelocatingEmplaceInsideForEachReturnsNullopt) {
  Lifetimes::reset();
  VectorPool<Tracked> pool(policy(StorageMode::contiguous, 2));
  pool.emplace(1);
  pool.emplace(2);
  pool.for_each([&](Tracked&) { EXPECT_FALSE(pool.emplace(3).has_value()); });
  EXPECT_EQ(pool.stats().failed_emplaces, 2u);
  pool.for_each([&](Tracked&) { EXPECT_FALSE(pool.reserve(100)); });
  EXPECT_EQ(pool.stats().refused_during_iteration, 2u);
  EXPECT_EQ(pool.capacity(), 2u);
  EXPECT_TRUE(pool.reserve(100));  // fine outside a pass
  EXPECT_EQ(pool.size(), 2u);
  EXPECT_EQ(Lifetimes::live(), 2);
}

}  // namespace
}  // namespace pool_test
