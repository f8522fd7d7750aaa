// The pool library as a shipped game builds it, with debug checks off: every misuse is still
// refused safely and counted. And, where no sanitizer's allocator ends the program first, an
// allocation that fails is refused with the pool as it was. (The release preset builds this
// program and few others: the sanitizer presets run the rest of the pool's tests.)
#define ENGINE_POOL_DEBUG 0
#include <engine/pool/concurrent_pool.hpp>
#include <engine/pool/multi_pool.hpp>
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "support/pool_test_support.hpp"
#include "support/reentrant_node.hpp"

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

// Inside T's constructor a packed pool refuses release(): filling the hole would move the
// last object, which may be the one under construction.
struct ReleasesInItsConstructor {
  explicit ReleasesInItsConstructor(PoolHandle victim) { accepted = pool->release(victim); }
  ReleasesInItsConstructor(ReleasesInItsConstructor&&) noexcept = default;
  static inline VectorPool<ReleasesInItsConstructor>* pool = nullptr;
  static inline bool accepted = true;
};

TEST(PackedConstructor, ReleaseInsideAConstructorIsRefused) {
  VectorPool<ReleasesInItsConstructor> pool(policy(StorageMode::packed, 8));
  ReleasesInItsConstructor::pool = &pool;
  const PoolHandle first = *pool.emplace(PoolHandle{});
  ASSERT_TRUE(pool.emplace(first).has_value());
  EXPECT_FALSE(ReleasesInItsConstructor::accepted);
  EXPECT_TRUE(pool.contains(first));
  EXPECT_EQ(pool.stats().refused_during_iteration, 2u);
  EXPECT_TRUE(pool.validate());
}

TEST(ConcurrentPool, ReleaseRefusesMisuseWithoutDebugChecks) {
  engine::ConcurrentPoolConfig config;
  config.page_slots = 64;
  config.max_capacity = 1024;
  engine::ConcurrentPool<int> a(config);
  engine::ConcurrentPool<int> b(config);
  const auto h = a.emplace(1);
  b.emplace(2);
  EXPECT_FALSE(b.release(*h));
  EXPECT_TRUE(a.release(*h));
  EXPECT_FALSE(a.release(*h));
  EXPECT_EQ(a.stats().failed_releases, 1u);
  EXPECT_EQ(b.stats().failed_releases, 1u);
}

TEST(MultiPool, DoubleReleaseIsRefused) {
  engine::MultiPool<Tracked, AlignedTracked> pool;
  const auto h = pool.emplace<Tracked>(1);
  EXPECT_TRUE(pool.release(*h));
  EXPECT_FALSE(pool.release(*h));
  EXPECT_EQ(pool.stats().failed_releases, 1u);
}

// If erase_if picks parent and child, the parent's release() of the child is a double
// release: refused (and counted), and the child still dies exactly once.
TEST_P(Reentrant, EraseIfVictimReleasingAnotherVictimIsRefused) {
  VectorPool<Node> pool(policy(GetParam(), 16));
  family(pool, false);
  const std::size_t erased = pool.erase_if([](const Node&) { return true; });
  EXPECT_EQ(erased, 80u);
  EXPECT_EQ(Node::refused_child_releases, 40);
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_TRUE(pool.validate());
}

INSTANTIATE_TEST_SUITE_P(AllModes, Reentrant, ::testing::ValuesIn(kAllModes), mode_name);

class Lifetime : public LifetimeChecked<::testing::TestWithParam<StorageMode>> {};

// A megabyte per object: growing by 2^28 slots asks for 256 TiB, more than the address
// space, so the allocation fails however the kernel overcommits.
struct Huge {
  explicit Huge(int v) : value(v) {}
  int value;
  unsigned char payload[(1 << 20) - sizeof(int)];
};

TEST_P(Lifetime, FailedAllocationReturnsNulloptAndChangesNothing) {
  if (engine::detail::asan_poisoning) GTEST_SKIP() << "ASan aborts on impossible allocations instead of throwing";
  if (GetParam() == StorageMode::heap) GTEST_SKIP() << "heap allocates objects one at a time: HeapLayout tests that";
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "TSan's allocator reports out-of-memory on impossible allocations instead of throwing";
#endif
  GrowthPolicy impossible = policy(GetParam(), 0);
  impossible.growth_step = std::size_t{1} << 28;  // contiguous: the first growth asks for 2^28 slots
  impossible.page_slots = std::size_t{1} << 30;   // stable: every page is 2^28 slots (cut at the cap)
  const bool paged = is_paged_storage(GetParam());
  impossible.initial_capacity = paged ? 0 : 1;
  VectorPool<Huge> pool(impossible);
  std::optional<PoolHandle> h;
  if (!paged) {  // contiguous and packed: one slot, then a huge growth
    h = pool.emplace(1);
    ASSERT_TRUE(h.has_value());
  }
  const PoolStats before = pool.stats();
  EXPECT_FALSE(pool.emplace(2).has_value());
  EXPECT_FALSE(pool.acquire(3));
  EXPECT_FALSE(pool.reserve(std::size_t{1} << 27));
  PoolStats after = pool.stats();
  EXPECT_EQ(after.failed_emplaces, before.failed_emplaces + 2);
  after.failed_emplaces = before.failed_emplaces;
  EXPECT_TRUE(same_counts(before, after));
  if (h) {
    EXPECT_EQ(pool.get(*h)->value, 1);
  }
  EXPECT_TRUE(pool.validate());
  // A storage switch that cannot allocate its new layout is refused the same way.
  GrowthPolicy other = impossible;
  other.storage = paged ? StorageMode::contiguous : StorageMode::stable;
  if (!paged) {
    EXPECT_FALSE(pool.set_policy(other));
    EXPECT_EQ(pool.policy().storage, GetParam());
    EXPECT_EQ(pool.get(*h)->value, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(AllModes, Lifetime, ::testing::ValuesIn(kAllModes), mode_name);

// A terabyte per object: the heap layout's own allocation of one fails however the kernel
// overcommits. Refused like any failed emplace, with the pool as it was, whether the failure
// comes with a growth (a new page of pointers) or without.
struct Giant {
  explicit Giant(int v) : value(v) {}
  int value;
  unsigned char payload[(std::size_t{1} << 40) - sizeof(int)];
};

TEST(HeapLayout, AnObjectAllocationThatFailsIsRefusedAndChangesNothing) {
  if (engine::detail::asan_poisoning) GTEST_SKIP() << "ASan aborts on impossible allocations instead of failing";
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "TSan's allocator reports out-of-memory on impossible allocations instead of failing";
#endif
  VectorPool<Giant> pool(policy(StorageMode::heap, 0));
  const PoolStats empty = pool.stats();
  EXPECT_FALSE(pool.emplace(1).has_value()) << "with a growth";
  PoolStats after = pool.stats();
  EXPECT_EQ(after.failed_emplaces, empty.failed_emplaces + 1);
  after.failed_emplaces = empty.failed_emplaces;
  EXPECT_TRUE(same_counts(empty, after));
  ASSERT_TRUE(pool.reserve(64));
  const PoolStats reserved = pool.stats();
  EXPECT_FALSE(pool.emplace(2).has_value()) << "into a free slot";
  after = pool.stats();
  EXPECT_EQ(after.failed_emplaces, reserved.failed_emplaces + 1);
  after.failed_emplaces = reserved.failed_emplaces;
  EXPECT_TRUE(same_counts(reserved, after));
  EXPECT_TRUE(pool.validate());
}

}  // namespace
}  // namespace pool_test
