// VectorPool<T>: object lifetimes through growth, migration, failure and unusual types.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/pool_test_support.hpp"
#include "support/reentrant_node.hpp"

namespace pool_test {
namespace {

class Lifetime : public ::testing::TestWithParam<StorageMode> {
 protected:
  void SetUp() override { Lifetimes::reset(); }
  void TearDown() override {
    EXPECT_EQ(Lifetimes::live(), 0) << "leaked or double-destroyed objects";
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }
};

TEST_P(Lifetime, GrowthKeepsEveryObjectAliveExactlyOnce) {
  VectorPool<Tracked> pool(policy(GetParam(), 1));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 2000; ++i) {
    handles.push_back(*pool.emplace(i));
    ASSERT_EQ(Lifetimes::live(), i + 1);
  }
  if (is_paged_storage(GetParam())) {
    EXPECT_EQ(Lifetimes::moves, 0);  // pages never move (stable, packed_pages)
  } else {
    EXPECT_GT(Lifetimes::moves, 0);  // nothrow move relocates
  }
  EXPECT_EQ(Lifetimes::copies, 0);
  for (int i = 0; i < 2000; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->value(), i);
}

TEST_P(Lifetime, DestructorAndClearDestroyEachObjectOnce) {
  {
    VectorPool<Tracked> pool(policy(GetParam(), 8));
    for (int i = 0; i < 100; ++i) pool.emplace(i);
    pool.clear();
    EXPECT_EQ(Lifetimes::live(), 0);
    for (int i = 0; i < 77; ++i) pool.emplace(i);
    EXPECT_EQ(Lifetimes::live(), 77);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST_P(Lifetime, SetPolicyMigratesObjectsAndKeepsHandles) {
  VectorPool<Tracked> pool(policy(GetParam(), 8));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 300; ++i) handles.push_back(*pool.emplace(i));
  for (std::size_t i = 0; i < 300; i += 2) pool.release(handles[i]);
  GrowthPolicy next = pool.policy();
  next.storage = GetParam() == StorageMode::stable ? StorageMode::contiguous : StorageMode::stable;
  std::size_t events = 0;
  pool.set_growth_listener([&](const engine::GrowthEvent& e) {
    ++events;
    EXPECT_EQ(e.relocated_objects, 150u);
  });
  ASSERT_TRUE(pool.set_policy(next));
  EXPECT_EQ(events, 1u);
  pool.set_growth_listener(nullptr);
  EXPECT_EQ(pool.policy().storage, next.storage);
  EXPECT_EQ(Lifetimes::live(), 150);
  for (std::size_t i = 0; i < 300; ++i) {
    if (i % 2 == 0) {
      EXPECT_FALSE(pool.contains(handles[i]));
    } else {
      EXPECT_EQ(pool.get(handles[i])->value(), static_cast<int>(i));
    }
  }
  // Freed slots are still reused after the switch, and old handles stay refused.
  for (int i = 0; i < 150; ++i) pool.emplace(1000 + i);
  for (std::size_t i = 0; i < 300; i += 2) EXPECT_FALSE(pool.contains(handles[i]));
  EXPECT_TRUE(pool.validate());
  // And back again, with different pages.
  next.storage = GetParam();
  next.page_slots = 128;
  ASSERT_TRUE(pool.set_policy(next));
  for (std::size_t i = 1; i < 300; i += 2) EXPECT_EQ(pool.get(handles[i])->value(), static_cast<int>(i));
  EXPECT_TRUE(pool.validate());
}

TEST_P(Lifetime, SetPolicyRefusesACapBelowTheCurrentCapacity) {
  VectorPool<Tracked> pool(policy(GetParam(), 128));
  const PoolHandle h = *pool.emplace(1);
  GrowthPolicy lower = pool.policy();
  lower.max_capacity = 10;
  EXPECT_FALSE(pool.set_policy(lower));
  EXPECT_EQ(pool.policy().max_capacity, std::size_t{1} << 28);
  EXPECT_EQ(pool.get(h)->value(), 1);
}

TEST_P(Lifetime, ThrowingConstructorLeavesThePoolExactlyAsItWas) {
  VectorPool<ThrowingTracked> pool(policy(GetParam(), 4));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 4; ++i) handles.push_back(*pool.emplace(i));  // full: the next one grows
  pool.release(handles[1]);
  handles.erase(handles.begin() + 1);
  pool.emplace(10);  // takes the free slot: full again
  const PoolStats before = pool.stats();
  const long live_before = Lifetimes::live();

  Lifetimes::throw_countdown = 1;  // needs growth, and the constructor throws
  EXPECT_THROW(pool.emplace(99), std::runtime_error);
  EXPECT_TRUE(same_counts(before, pool.stats()));
  EXPECT_EQ(Lifetimes::live(), live_before);
  EXPECT_TRUE(pool.validate());

  pool.release(handles[0]);  // now a free slot exists: throw without growth
  const PoolStats before_free = pool.stats();
  Lifetimes::throw_countdown = 1;
  EXPECT_THROW(pool.emplace(98), std::runtime_error);
  EXPECT_TRUE(same_counts(before_free, pool.stats()));
  EXPECT_TRUE(pool.validate());
  const PoolHandle reused = *pool.emplace(7);  // the slot is still the next one handed out
  EXPECT_EQ(reused.index, handles[0].index);
  for (std::size_t i = 1; i < handles.size(); ++i) EXPECT_EQ(pool.get(handles[i])->value(), static_cast<int>(i + 1));
}

// Fuzzer finding: a stable growth that had to enlarge the page table kept the larger table
// when the constructor threw, so bytes_held changed. Pools with 0 and 8 pages both have a
// full page table when they grow.
TEST(LifetimeStable, ThrowingConstructorOnAFullPageTableKeepsBytesHeld) {
  for (const int pages : {0, 8}) {
    SCOPED_TRACE(std::to_string(pages) + " pages");
    Lifetimes::reset();
    {
      VectorPool<ThrowingTracked> pool(policy(StorageMode::stable, static_cast<std::size_t>(pages) * 64));
      for (int i = 0; i < pages * 64; ++i) ASSERT_TRUE(pool.emplace(i).has_value());
      const PoolStats before = pool.stats();
      Lifetimes::throw_countdown = 1;
      EXPECT_THROW(pool.emplace(99), std::runtime_error);
      EXPECT_TRUE(same_counts(before, pool.stats()))
          << "bytes_held " << before.bytes_held << " -> " << pool.stats().bytes_held;
      EXPECT_TRUE(pool.validate());
      const PoolHandle h = *pool.emplace(100);  // and the growth still works afterwards
      EXPECT_EQ(pool.get(h)->value(), 100);
      EXPECT_EQ(pool.stats().growth_events, before.growth_events + 1);
    }
    EXPECT_EQ(Lifetimes::live(), 0);
  }
}

TEST_P(Lifetime, MaxCapacityRefusesWithNulloptAndChangesNothing) {
  VectorPool<Tracked> pool(policy(GetParam(), 3, 0, 5));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 5; ++i) {
    const auto h = pool.emplace(i);
    ASSERT_TRUE(h.has_value()) << i;
    handles.push_back(*h);
  }
  EXPECT_EQ(pool.capacity(), 5u);
  PoolStats before = pool.stats();
  EXPECT_FALSE(pool.emplace(5).has_value());
  EXPECT_FALSE(pool.acquire(6));
  EXPECT_FALSE(pool.reserve(6));
  PoolStats after = pool.stats();
  EXPECT_EQ(after.failed_emplaces, before.failed_emplaces + 2);
  after.failed_emplaces = before.failed_emplaces;
  EXPECT_TRUE(same_counts(before, after));
  EXPECT_EQ(Lifetimes::live(), 5);
  pool.release(handles[2]);
  EXPECT_TRUE(pool.emplace(9).has_value());  // room again after a release
}

TEST_P(Lifetime, MoveOnlyTypesWork) {
  VectorPool<MoveOnlyTracked> pool(policy(GetParam(), 1));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 200; ++i) handles.push_back(*pool.emplace(i));
  for (int i = 0; i < 200; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->value(), i);
  GrowthPolicy other = pool.policy();
  other.storage = GetParam() == StorageMode::stable ? StorageMode::contiguous : StorageMode::stable;
  ASSERT_TRUE(pool.set_policy(other));
  for (int i = 0; i < 200; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->value(), i);
}

TEST_P(Lifetime, OverAlignedObjectsLandOnTheirAlignment) {
  VectorPool<AlignedTracked> pool(policy(GetParam(), 1));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 300; ++i) {
    handles.push_back(*pool.emplace(i));
    for (const PoolHandle h : handles) {
      ASSERT_EQ(reinterpret_cast<std::uintptr_t>(pool.get(h)) % 64, 0u);
    }
  }
  for (const AlignedTracked& a : pool) EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&a) % 64, 0u);
}

TEST_P(Lifetime, ThrowingMoveIsRelocatedByCopyAndAFailedCopyRollsBack) {
  VectorPool<ThrowingTracked> pool(policy(GetParam(), 64));
  // Packed needs a noexcept move (a release moves an object): this T gets contiguous instead,
  // and packed_pages gets stable (still nothing moves on growth). Heap never moves an object.
  const StorageMode mode = GetParam() == StorageMode::packed         ? StorageMode::contiguous
                           : GetParam() == StorageMode::packed_pages ? StorageMode::stable
                                                                     : GetParam();
  EXPECT_EQ(pool.policy().storage, mode);
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 64; ++i) handles.push_back(*pool.emplace(i));
  GrowthPolicy other = pool.policy();
  other.storage = mode == StorageMode::stable ? StorageMode::contiguous : StorageMode::stable;
  const long live_before = Lifetimes::live();
  Lifetimes::throw_countdown = 30;  // the 30th copy during migration throws
  EXPECT_THROW(pool.set_policy(other), std::runtime_error);
  EXPECT_EQ(Lifetimes::live(), live_before);  // copies made so far were destroyed
  EXPECT_EQ(pool.policy().storage, mode);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->value(), i);
  EXPECT_TRUE(pool.validate());
  GrowthPolicy packed = pool.policy();
  packed.storage = StorageMode::packed;
  EXPECT_FALSE(pool.set_policy(packed)) << "packed refused for a T whose move may throw";
  packed.storage = StorageMode::packed_pages;
  EXPECT_FALSE(pool.set_policy(packed)) << "packed_pages refused for a T whose move may throw";
  EXPECT_EQ(pool.policy().storage, mode);
  const long copies_before = Lifetimes::copies;
  ASSERT_TRUE(pool.set_policy(other));
  EXPECT_EQ(Lifetimes::copies - copies_before, 64);  // copied, never moved: strong guarantee
  for (int i = 0; i < 64; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->value(), i);
}

INSTANTIATE_TEST_SUITE_P(AllModes, Lifetime, ::testing::ValuesIn(kAllModes), mode_name);

TEST(LifetimeContiguous, FailedCopyDuringGrowthLeavesThePoolAsItWas) {
  Lifetimes::reset();
  {
    VectorPool<ThrowingTracked> pool(policy(StorageMode::contiguous, 16));
    std::vector<PoolHandle> handles;
    for (int i = 0; i < 16; ++i) handles.push_back(*pool.emplace(i));
    const PoolStats before = pool.stats();
    Lifetimes::throw_countdown = 5;  // new object constructs, then the 4th relocation copy throws
    EXPECT_THROW(pool.emplace(100), std::runtime_error);
    EXPECT_TRUE(same_counts(before, pool.stats()));
    EXPECT_EQ(Lifetimes::live(), 16);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->value(), i);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_EQ(Lifetimes::bad_destructions, 0);
}

// erase_if picks the parents; their destructors release the children (not on the list)
// while erase_if is still walking its list of victims in the free stack's arrays.
TEST_P(Reentrant, EraseIfVictimsMayReleaseOtherObjectsFromTheirDestructors) {
  VectorPool<Node> pool(policy(GetParam(), 16));
  family(pool, false);
  ASSERT_EQ(pool.size(), 80u);
  const std::size_t erased = pool.erase_if([](const Node& n) { return n.tracked.value() < 1000; });
  EXPECT_EQ(erased, 40u);
  EXPECT_EQ(Node::refused_child_releases, 0);
  EXPECT_EQ(pool.size(), 0u) << "every child went with its parent";
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_TRUE(pool.validate());
  const std::size_t capacity = pool.capacity();
  for (int i = 0; i < 80; ++i) ASSERT_TRUE(pool.emplace(i, nullptr, PoolHandle{}, false).has_value());
  EXPECT_EQ(pool.capacity(), capacity) << "all 80 slots came back to the free stack";
  EXPECT_TRUE(pool.validate());
}

// flush_releases() flushes what destructors queue while it runs.
TEST_P(Reentrant, FlushAlsoReleasesWhatDestructorsQueue) {
  VectorPool<Node> pool(policy(GetParam(), 16));
  const std::vector<PoolHandle> parents = family(pool, true);
  for (const PoolHandle h : parents) pool.release_later(h);
  EXPECT_EQ(pool.flush_releases(), 80u) << "40 parents, then the 40 children they queued";
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_TRUE(pool.validate());
  // And release() from a destructor during a flush works too.
  const std::vector<PoolHandle> again = family(pool, false);
  for (const PoolHandle h : again) pool.release_later(h);
  EXPECT_EQ(pool.flush_releases(), 40u);
  EXPECT_EQ(Node::refused_child_releases, 0);
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_TRUE(pool.validate());
}

INSTANTIATE_TEST_SUITE_P(AllModes, Reentrant, ::testing::ValuesIn(kAllModes), mode_name);

TEST(LifetimeStable, PointersStayValidAcrossGrowth) {
  VectorPool<Tracked> pool(policy(StorageMode::stable, 1));
  std::vector<std::pair<PoolHandle, const Tracked*>> kept;
  for (int i = 0; i < 5000; ++i) {
    const PoolHandle h = *pool.emplace(i);
    kept.emplace_back(h, pool.get(h));
  }
  EXPECT_GT(pool.stats().growth_events, 50u);
  for (const auto& [h, address] : kept) EXPECT_EQ(pool.get(h), address);
}

TEST(LifetimeStable, GrowthAllocatesOnePageRegardlessOfSize) {
  // The O(1)-growth property behind the worst-emplace target: each growth allocates the
  // same number of bytes (one page with its own metadata) however many objects live.
  GrowthPolicy p = policy(StorageMode::stable, 0);
  p.page_slots = 1024;
  VectorPool<Tracked> pool(p);
  std::vector<std::size_t> bytes;
  pool.set_growth_listener([&](const engine::GrowthEvent& e) { bytes.push_back(e.bytes_allocated); });
  for (int i = 0; i < 100 * 1024; ++i) pool.emplace(i);
  ASSERT_EQ(bytes.size(), 100u);
  for (std::size_t b : bytes) EXPECT_EQ(b, bytes.front());
  // Per slot: the object, then 4 bytes each of generation, position (the dense storages'),
  // free stack share and release queue position, 8 of release queue entry, one occupancy bit.
  EXPECT_LT(bytes.front(), 1024 * (sizeof(Tracked) + 25));
}

}  // namespace
}  // namespace pool_test
