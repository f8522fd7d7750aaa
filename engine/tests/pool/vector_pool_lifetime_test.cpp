// VectorPool<T>: object lifetimes through growth, migration, failure and unusual types.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

bool same_counts(const PoolStats& a, const PoolStats& b) {
  return a.live == b.live && a.free == b.free && a.capacity == b.capacity && a.peak_live == b.peak_live &&
         a.bytes_held == b.bytes_held && a.emplaces == b.emplaces && a.releases == b.releases &&
         a.failed_emplaces == b.failed_emplaces && a.failed_releases == b.failed_releases &&
         a.stale_gets == b.stale_gets && a.refused_during_iteration == b.refused_during_iteration &&
         a.growth_events == b.growth_events;
}

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

// A node that owns a child in its own pool and lets it go from its destructor, as a tree
// of PoolPtr members would: release() now, or release_later() for the next flush.
struct Node {
  Node(int value, VectorPool<Node>* owner_pool, PoolHandle child_handle, bool defer_release)
      : tracked(value), owner(owner_pool), child(child_handle), defer(defer_release) {}
  Node(Node&& other) noexcept
      : tracked(std::move(other.tracked)), owner(other.owner), child(other.child), defer(other.defer) {
    other.owner = nullptr;  // the moved-from shell owns nothing
  }
  Node& operator=(Node&&) = delete;
  ~Node() {
    if (owner == nullptr || child.is_null()) return;
    if (defer) {
      owner->release_later(child);
    } else if (!owner->release(child)) {
      ++refused_child_releases;
    }
  }
  Tracked tracked;
  VectorPool<Node>* owner;
  PoolHandle child;
  bool defer;
  static inline int refused_child_releases = 0;
};

class Reentrant : public ::testing::TestWithParam<StorageMode> {
 protected:
  void SetUp() override {
    Lifetimes::reset();
    Node::refused_child_releases = 0;
  }
  void TearDown() override {
    EXPECT_EQ(Lifetimes::live(), 0);
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }
  // 40 parents, each with one child; parents have values 0..39, children 1000+.
  static std::vector<PoolHandle> family(VectorPool<Node>& pool, bool defer) {
    std::vector<PoolHandle> parents;
    for (int i = 0; i < 40; ++i) {
      const PoolHandle child = *pool.emplace(1000 + i, nullptr, PoolHandle{}, false);
      parents.push_back(*pool.emplace(i, &pool, child, defer));
    }
    return parents;
  }
};

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

// If erase_if picks parent and child, the parent's release() of the child is a double
// release: refused (and counted), and the child still dies exactly once.
TEST_P(Reentrant, EraseIfVictimReleasingAnotherVictimIsRefused) {
  if (ENGINE_POOL_DEBUG) GTEST_SKIP() << "debug builds assert on the double release";
  VectorPool<Node> pool(policy(GetParam(), 16));
  family(pool, false);
  const std::size_t erased = pool.erase_if([](const Node&) { return true; });
  EXPECT_EQ(erased, 80u);
  EXPECT_EQ(Node::refused_child_releases, 40);
  EXPECT_EQ(pool.size(), 0u);
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
  // Per slot: the object, then 4 bytes each of generation, free stack share and release
  // queue position, 8 of release queue entry, one occupancy bit.
  EXPECT_LT(bytes.front(), 1024 * (sizeof(Tracked) + 21));
}

}  // namespace
}  // namespace pool_test
