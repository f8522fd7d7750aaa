// VectorPool<T>: the public API, in both storage modes.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

// Four slots: the API tests below reach growth within a few emplaces.
GrowthPolicy small_policy(StorageMode mode, std::size_t initial = 4) { return policy(mode, initial); }

class VectorPoolModes : public LifetimeChecked<::testing::TestWithParam<StorageMode>> {};

TEST_P(VectorPoolModes, EmplaceConstructsInPlaceAndGetReachesIt) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  const auto h = pool.emplace(42);
  ASSERT_TRUE(h.has_value());
  EXPECT_FALSE(h->is_null());
  ASSERT_NE(pool.get(*h), nullptr);
  EXPECT_EQ(pool.get(*h)->value(), 42);
  EXPECT_TRUE(pool.contains(*h));
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_FALSE(pool.empty());
  EXPECT_EQ(Lifetimes::constructed, 1);  // built in place: no temporary, no copy, no move
  EXPECT_EQ(Lifetimes::copies + Lifetimes::moves, 0);
}

TEST_P(VectorPoolModes, ReleaseDestroysOnceAndTheHandleGoesStale) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  EXPECT_TRUE(pool.release(h));
  // Packed moves a dying object out of the array before its destructor runs; the moved-from
  // shell's destructor is counted too, so count the objects that ended: destroyed - moves.
  EXPECT_EQ(Lifetimes::destroyed - Lifetimes::moves, 1);
  EXPECT_EQ(pool.get(h), nullptr);
  EXPECT_FALSE(pool.contains(h));
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.stats().stale_gets, 1u);
}

TEST_P(VectorPoolModes, ReusedSlotGetsANewGenerationSoOldHandlesMissIt) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  const PoolHandle first = *pool.emplace(1);
  ASSERT_TRUE(pool.release(first));
  const PoolHandle second = *pool.emplace(2);
  EXPECT_EQ(second.index, first.index);  // LIFO: the freed slot comes back first
  EXPECT_NE(second.generation, first.generation);
  EXPECT_EQ(pool.get(first), nullptr);
  EXPECT_EQ(pool.get(second)->value(), 2);
}

TEST_P(VectorPoolModes, NullAndOutOfRangeHandlesAreRefused) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  pool.emplace(1);
  EXPECT_EQ(pool.get(PoolHandle{}), nullptr);
  EXPECT_EQ(pool.get(PoolHandle{1000000, 1}), nullptr);
  EXPECT_FALSE(pool.contains(PoolHandle{0, 0}));
  EXPECT_FALSE(pool.release(PoolHandle{}));  // null is refused quietly, even in debug
  EXPECT_EQ(pool.stats().failed_releases, 1u);
}

TEST_P(VectorPoolModes, ForeignHandlesAreRefused) {
  VectorPool<Tracked> a(small_policy(GetParam()));
  VectorPool<Tracked> b(small_policy(GetParam()));
  std::vector<PoolHandle> from_a;
  for (int i = 0; i < 50; ++i) {
    from_a.push_back(*a.emplace(i));
    b.emplace(i);
  }
  for (const PoolHandle h : from_a) {
    EXPECT_FALSE(b.contains(h)) << "index " << h.index;
    EXPECT_TRUE(a.contains(h));
  }
}

TEST_P(VectorPoolModes, IterationVisitsLiveObjectsInAddressOrder) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 300; ++i) handles.push_back(*pool.emplace(i));
  for (int i = 0; i < 300; i += 3) pool.release(handles[static_cast<std::size_t>(i)]);
  const Tracked* previous = nullptr;
  std::vector<int> seen;
  for (Tracked& t : pool) {
    if (!is_paged_storage(GetParam()) && previous != nullptr) {  // one buffer: address order
      EXPECT_LT(previous, &t);
    }
    previous = &t;
    seen.push_back(t.value());
  }
  std::vector<int> expected;
  for (int i = 0; i < 300; ++i) {
    if (i % 3 != 0) expected.push_back(i);
  }
  // Packed: dense order (each release moved the last object into its hole), not slot order.
  if (is_packed_storage(GetParam())) std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, expected);  // slot order == emplace order here, minus the released ones

  std::vector<int> by_for_each;
  pool.for_each([&](Tracked& t) { by_for_each.push_back(t.value()); });
  if (is_packed_storage(GetParam())) std::sort(by_for_each.begin(), by_for_each.end());
  EXPECT_EQ(by_for_each, expected);

  std::vector<std::uint32_t> indices = pool.active_indices();
  EXPECT_TRUE(std::is_sorted(indices.begin(), indices.end()));
  EXPECT_EQ(indices.size(), expected.size());
}

TEST_P(VectorPoolModes, ForEachWithHandleGivesTheLiveHandle) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 100; ++i) handles.push_back(*pool.emplace(i));
  std::vector<PoolHandle> seen;
  pool.for_each([&](PoolHandle h, Tracked& t) {
    EXPECT_EQ(pool.get(h), &t);
    seen.push_back(h);
  });
  EXPECT_EQ(seen, handles);
  const VectorPool<Tracked>& view = pool;
  int sum = 0;
  view.for_each([&](const Tracked& t) { sum += t.value(); });
  EXPECT_EQ(sum, 99 * 100 / 2);
}

TEST_P(VectorPoolModes, RangeForToleratesReleasingTheCurrentAndLaterObjects) {
  if (is_packed_storage(GetParam())) GTEST_SKIP() << "packed moves objects on release: see vector_pool_packed_test";
  VectorPool<Tracked> pool(small_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 130; ++i) handles.push_back(*pool.emplace(i));
  std::vector<int> seen;
  for (auto it = pool.begin(); it != pool.end(); ++it) {
    seen.push_back(it->value());
    const auto i = static_cast<std::size_t>(it->value());
    if (i + 1 < handles.size()) pool.release(handles[i + 1]);  // the next one never shows up
  }
  for (int v : seen) EXPECT_EQ(v % 2, 0);
  EXPECT_EQ(seen.size(), 65u);
  EXPECT_EQ(Lifetimes::live(), 65);
}

TEST_P(VectorPoolModes, ReleaseLaterDefersUntilFlush) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 10; ++i) handles.push_back(*pool.emplace(i));
  pool.for_each([&](PoolHandle h, Tracked& t) {
    if (t.value() % 2 == 0) pool.release_later(h);
  });
  EXPECT_EQ(pool.size(), 10u);     // nothing died mid-pass
  pool.release_later(handles[0]);  // queued twice: dies once
  EXPECT_EQ(pool.flush_releases(), 5u);
  EXPECT_EQ(pool.size(), 5u);
  EXPECT_EQ(Lifetimes::live(), 5);
  EXPECT_EQ(pool.stats().failed_releases, 1u);
  EXPECT_EQ(pool.flush_releases(), 0u);
}

TEST_P(VectorPoolModes, EraseIfReleasesMatchesAfterThePass) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 200; ++i) handles.push_back(*pool.emplace(i));
  std::size_t visited = 0;
  const std::size_t erased = pool.erase_if([&](const Tracked& t) {
    ++visited;
    EXPECT_EQ(Lifetimes::live(), 200);  // releases wait for the end of the pass
    return t.value() % 4 == 1;
  });
  EXPECT_EQ(visited, 200u);
  EXPECT_EQ(erased, 50u);
  EXPECT_EQ(pool.size(), 150u);
  EXPECT_EQ(Lifetimes::live(), 150);
  for (std::size_t i = 0; i < handles.size(); ++i) EXPECT_EQ(pool.contains(handles[i]), i % 4 != 1);
  const std::size_t by_handle = pool.erase_if([&](PoolHandle h, Tracked&) { return h == handles[0]; });
  EXPECT_EQ(by_handle, 1u);
  EXPECT_FALSE(pool.contains(handles[0]));
}

// erase_if keeps its list of victims in the free stack's arrays just above the stack's top;
// a predicate that emplaces pops that stack underneath the list. Every victim must still
// die, the new objects must live, and the slots it freed come back lowest index first.
TEST_P(VectorPoolModes, EraseIfWhosePredicateEmplacesErasesExactlyTheChosen) {
  VectorPool<Tracked> pool(small_policy(GetParam(), 256));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 200; ++i) handles.push_back(*pool.emplace(i));
  for (int i = 0; i < 200; i += 5)
    ASSERT_TRUE(pool.release(handles[static_cast<std::size_t>(i)]));  // 40 on the free stack
  std::vector<PoolHandle> born;
  const std::size_t erased = pool.erase_if([&](PoolHandle, const Tracked& t) {
    if (t.value() >= 1000) return false;  // born in this pass: keep
    if (t.value() % 7 == 3 && born.size() < 30) born.push_back(*pool.emplace(1000 + static_cast<int>(born.size())));
    return t.value() % 3 == 0;
  });
  std::size_t expected = 0;
  for (int i = 0; i < 200; ++i) expected += (i % 5 != 0 && i % 3 == 0) ? 1u : 0u;
  EXPECT_EQ(erased, expected);
  EXPECT_EQ(born.size(), 23u);  // values 3, 10, ... below 160 that were still alive
  ASSERT_TRUE(pool.validate());
  for (int i = 0; i < 200; ++i) {
    const bool alive = i % 5 != 0 && i % 3 != 0;
    EXPECT_EQ(pool.contains(handles[static_cast<std::size_t>(i)]), alive) << i;
  }
  for (std::size_t k = 0; k < born.size(); ++k) {
    ASSERT_NE(pool.get(born[k]), nullptr);
    EXPECT_EQ(pool.get(born[k])->value(), 1000 + static_cast<int>(k));
  }
  EXPECT_EQ(pool.size(), 200 - 40 - expected + born.size());
  EXPECT_EQ(Lifetimes::live(), static_cast<long>(pool.size()));
  // The lowest slot erase_if freed is handed out next (value 3: the first victim).
  EXPECT_EQ(pool.emplace(-1)->index, handles[3].index);
}

// An iterator is a position, not a pointer: a range-for goes on across a growth that relocates
// every object, and reaches the objects emplaced behind it.
TEST(VectorPoolContiguous, RangeForGoesOnAcrossARelocation) {
  VectorPool<Tracked> pool(policy(StorageMode::contiguous, 2));
  pool.emplace(1);
  pool.emplace(2);
  std::vector<int> seen;
  for (auto it = pool.begin(); it != pool.end(); ++it) {
    seen.push_back(it->value());
    if (it->value() < 10) {
      ASSERT_TRUE(pool.emplace(it->value() + 10).has_value());
    }
  }
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 11, 12}));
  EXPECT_GE(pool.stats().growth_events, 1u);
}

// A stable pool can grow inside erase_if; newcomers in the new pages may be visited. If the pass
// erases them too, the victims outnumber the slots the pool had when the pass began: the list of
// victims must move up into the grown arrays, not run off them.
TEST(VectorPoolStable, EraseIfThatGrowsThePoolAndErasesTheNewcomers) {
  Lifetimes::reset();
  {
    GrowthPolicy p = small_policy(StorageMode::stable, 64);
    VectorPool<Tracked> pool(p);
    for (int i = 0; i < 64; ++i) ASSERT_TRUE(pool.emplace(i).has_value());  // full: no free slot
    ASSERT_EQ(pool.capacity(), 64u);
    int born = 0, refused = 0;
    const std::size_t erased = pool.erase_if([&](const Tracked& t) -> bool {
      if (t.value() < 64 && born < 200) {  // every old object brings in three or four newcomers
        for (int k = 0; k < 4 && born < 200; ++k) refused += pool.emplace(1000 + born++).has_value() ? 0 : 1;
      }
      return true;  // everything the pass visits dies, newcomers included
    });
    EXPECT_EQ(born, 200);
    EXPECT_EQ(refused, 0) << "stable growth is allowed inside the pass";
    EXPECT_GE(erased, 64u) << "every object there when the pass began died (newcomers may or may not be visited)";
    EXPECT_EQ(pool.size(), 64u + 200u - erased);
    EXPECT_EQ(Lifetimes::live(), static_cast<long>(pool.size()));
    ASSERT_TRUE(pool.validate());
    // The survivors are newcomers the pass did not reach; the freed slots all come back.
    std::size_t survivors = 0;
    pool.for_each([&](const Tracked& t) {
      EXPECT_GE(t.value(), 1000);
      ++survivors;
    });
    EXPECT_EQ(survivors, pool.size());
    const std::size_t capacity = pool.capacity();
    while (pool.size() < capacity) ASSERT_TRUE(pool.emplace(-1).has_value());
    EXPECT_EQ(pool.capacity(), capacity) << "every erased slot was on the free stack";
    ASSERT_TRUE(pool.validate());
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST_P(VectorPoolModes, StatsCountWhatHappened) {
  VectorPool<Tracked> pool(small_policy(GetParam(), 64));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 10; ++i) handles.push_back(*pool.emplace(i));
  for (int i = 0; i < 4; ++i) pool.release(handles[static_cast<std::size_t>(i)]);
  pool.get(handles[0]);
  const engine::PoolStats s = pool.stats();
  EXPECT_EQ(s.live, 6u);
  EXPECT_EQ(s.capacity, pool.capacity());
  EXPECT_EQ(s.free, s.capacity - 6u);
  EXPECT_EQ(s.peak_live, 10u);
  EXPECT_EQ(s.emplaces, 10u);
  EXPECT_EQ(s.releases, 4u);
  EXPECT_EQ(s.stale_gets, 1u);
  EXPECT_EQ(s.failed_emplaces, 0u);
  EXPECT_EQ(s.growth_events, 0u);
  EXPECT_GE(s.bytes_held, s.capacity * sizeof(Tracked));
}

TEST_P(VectorPoolModes, GrowthListenerHearsEveryGrowth) {
  VectorPool<Tracked> pool(small_policy(GetParam(), 16));
  std::vector<GrowthEvent> events;
  pool.set_growth_listener([&](const GrowthEvent& e) { events.push_back(e); });
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 1000; ++i) handles.push_back(*pool.emplace(i));
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(pool.stats().growth_events, events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_LT(events[i].old_capacity, events[i].new_capacity);
    EXPECT_GT(events[i].bytes_allocated, 0u);
    EXPECT_GE(events[i].microseconds, 0.0);
    if (i > 0) {
      EXPECT_EQ(events[i].old_capacity, events[i - 1].new_capacity);
    }
    if (GetParam() == StorageMode::heap) {  // the pointer array doubles; the objects stay put
      EXPECT_FALSE(events[i].relocated);
      EXPECT_EQ(events[i].relocated_objects, 0u);
      EXPECT_EQ(events[i].new_capacity, 2 * events[i].old_capacity);
    } else if (is_paged_storage(GetParam())) {  // stable, packed_pages
      EXPECT_FALSE(events[i].relocated);
      EXPECT_EQ(events[i].relocated_objects, 0u);
      EXPECT_EQ(events[i].new_capacity - events[i].old_capacity, 64u);  // one page per growth
    } else {
      EXPECT_TRUE(events[i].relocated);
      EXPECT_EQ(events[i].relocated_objects, events[i].old_capacity);  // it grew because it was full
    }
  }
  EXPECT_EQ(events.back().new_capacity, pool.capacity());
  for (std::size_t i = 0; i < handles.size(); ++i) EXPECT_EQ(pool.get(handles[i])->value(), static_cast<int>(i));
}

TEST_P(VectorPoolModes, ReserveGrowsOnceAndKeepsHandles) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  const PoolHandle h = *pool.emplace(7);
  EXPECT_TRUE(pool.reserve(1000));
  EXPECT_GE(pool.capacity(), 1000u);
  EXPECT_EQ(pool.stats().growth_events, 1u);
  EXPECT_EQ(pool.get(h)->value(), 7);
  EXPECT_TRUE(pool.reserve(10));  // already enough: nothing happens
  EXPECT_EQ(pool.stats().growth_events, 1u);
}

TEST_P(VectorPoolModes, ClearDestroysEverythingOnceAndStalesHandles) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 100; ++i) handles.push_back(*pool.emplace(i));
  const std::size_t capacity = pool.capacity();
  const long ended_before = Lifetimes::destroyed - Lifetimes::moves;  // growth moved (and destroyed) some
  pool.clear();
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_EQ(Lifetimes::destroyed - Lifetimes::moves - ended_before, 100);  // packed also moves in clear()
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.capacity(), capacity);
  for (const PoolHandle h : handles) EXPECT_FALSE(pool.contains(h));
  const PoolHandle again = *pool.emplace(5);
  EXPECT_EQ(again.index, 0u);  // refills from the front
  for (const PoolHandle h : handles) EXPECT_FALSE(pool.contains(h));
  EXPECT_TRUE(pool.validate());
}

TEST_P(VectorPoolModes, ShrinkToFitKeepsLiveObjectsAndHandles) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 500; ++i) handles.push_back(*pool.emplace(i));
  for (std::size_t i = 100; i < 500; ++i) pool.release(handles[i]);
  pool.shrink_to_fit();
  EXPECT_LT(pool.capacity(), 500u);
  EXPECT_GE(pool.capacity(), 100u);
  for (std::size_t i = 0; i < 100; ++i) EXPECT_EQ(pool.get(handles[i])->value(), static_cast<int>(i));
  for (std::size_t i = 100; i < 500; ++i) EXPECT_FALSE(pool.contains(handles[i]));
  // Slots re-created at trimmed indices must not revive the old handles.
  for (int i = 0; i < 400; ++i) pool.emplace(-i);
  for (std::size_t i = 100; i < 500; ++i) EXPECT_FALSE(pool.contains(handles[i])) << i;
  EXPECT_TRUE(pool.validate());
  EXPECT_EQ(Lifetimes::live(), 500);
}

TEST_P(VectorPoolModes, ShrinkToFitOfAnEmptyPoolFreesEverything) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  pool.release(h);
  pool.shrink_to_fit();
  EXPECT_EQ(pool.capacity(), 0u);
  const PoolHandle again = *pool.emplace(2);  // and it grows back from nothing
  EXPECT_EQ(pool.get(again)->value(), 2);
  EXPECT_FALSE(pool.contains(h));
}

TEST_P(VectorPoolModes, MoveTransfersObjectsAndHandles) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  const PoolHandle h = *pool.emplace(3);
  VectorPool<Tracked> moved(std::move(pool));
  EXPECT_EQ(moved.get(h)->value(), 3);
  EXPECT_EQ(Lifetimes::live(), 1);
  EXPECT_EQ(pool.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty and usable
  const PoolHandle other = *pool.emplace(4);
  EXPECT_EQ(pool.get(other)->value(), 4);
  VectorPool<Tracked> assigned(small_policy(GetParam()));
  assigned.emplace(99);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.get(h)->value(), 3);
  EXPECT_EQ(Lifetimes::live(), 2);  // the 99 died in the assignment
}

TEST_P(VectorPoolModes, ZeroInitialCapacityGrowsOnFirstEmplace) {
  GrowthPolicy p = small_policy(GetParam(), 0);
  VectorPool<Tracked> pool(p);
  EXPECT_EQ(pool.capacity(), 0u);
  const PoolHandle h = *pool.emplace(1);
  EXPECT_EQ(pool.get(h)->value(), 1);
  EXPECT_GE(pool.capacity(), 1u);
}

// Aggregates with no constructor: emplace(args...) builds T{args...} when
// T(args...) does not compile, as EnTT does, on every path that builds an object: a slot off
// the free stack, a bumped slot, a stable page's growth, a relocating growth, and acquire().
struct Point {  // trivial: the noexcept path
  int a;
  float b;
};
struct Named {  // its std::string may throw: the path that rolls back a claim
  std::string name;
  int n;
};
static_assert(!std::is_constructible_v<Point, int, float>, "the test needs a C++17 aggregate");
static_assert(!std::is_constructible_v<Named, const char*, int>, "the test needs a C++17 aggregate");

TEST_P(VectorPoolModes, AggregatesWithoutAConstructorAreBuiltWithBraces) {
  VectorPool<Point> points(small_policy(GetParam(), 2));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 40; ++i) handles.push_back(*points.emplace(i, 2.0f));  // bump, then growth
  ASSERT_TRUE(points.release(handles[3]));
  handles[3] = *points.emplace(3, 2.0f);  // off the free stack
  for (int i = 0; i < 40; ++i) {
    const Point* point = points.get(handles[static_cast<std::size_t>(i)]);
    ASSERT_NE(point, nullptr);
    EXPECT_EQ(point->a, i);
    EXPECT_EQ(point->b, 2.0f);
  }
  const PoolPtr<Point> owned = points.acquire(1, 2.0f);
  const Point* acquired = owned.get();
  ASSERT_NE(acquired, nullptr);
  EXPECT_EQ(acquired->a, 1);
  EXPECT_EQ(acquired->b, 2.0f);

  VectorPool<Named> named(small_policy(GetParam(), 2));
  std::vector<PoolHandle> named_handles;
  for (int i = 0; i < 10; ++i) named_handles.push_back(*named.emplace("node", i));
  for (int i = 0; i < 10; ++i) {
    const Named* node = named.get(named_handles[static_cast<std::size_t>(i)]);
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->name, "node");
    EXPECT_EQ(node->n, i);
  }
  EXPECT_TRUE(named.validate());
}

// A range-for's iterator converts to the const one, as every standard container's does, and
// the two compare: `const_iterator it = pool.begin()` and `it != pool.end()` both compile.
using MutableIt = VectorPool<Tracked>::iterator;
using ConstIt = VectorPool<Tracked>::const_iterator;
static_assert(std::is_convertible_v<MutableIt, ConstIt>);
static_assert(!std::is_convertible_v<ConstIt, MutableIt>, "a const_iterator must not give write access");
static_assert(std::is_nothrow_constructible_v<ConstIt, const MutableIt&>);

TEST_P(VectorPoolModes, IteratorConvertsToConstIteratorAndComparesWithIt) {
  VectorPool<Tracked> pool(small_policy(GetParam()));
  for (int i = 0; i < 20; ++i) pool.emplace(i);
  pool.release(pool.handle_at(5));
  int sum = 0, visited = 0;
  for (ConstIt it = pool.begin(); it != pool.end(); ++it) {  // converted from iterator, compared with iterator
    sum += it->value();
    ++visited;
  }
  EXPECT_EQ(visited, 19);
  EXPECT_EQ(sum, 190 - 5);
  const MutableIt first = pool.begin();
  const ConstIt converted = first;
  EXPECT_TRUE(converted == first);
  EXPECT_TRUE(first == converted);
  EXPECT_FALSE(converted != pool.cbegin());
  EXPECT_EQ(&*converted, &*first);
  EXPECT_EQ(converted.handle(), first.handle());
  EXPECT_TRUE(pool.cend() == pool.end());
  EXPECT_TRUE(pool.end() == pool.cend());
  ConstIt assigned;
  assigned = std::next(pool.begin());
  EXPECT_TRUE(assigned == std::next(pool.cbegin()));
  EXPECT_TRUE(assigned != first);
}

INSTANTIATE_TEST_SUITE_P(AllModes, VectorPoolModes, ::testing::ValuesIn(kAllModes), mode_name);

TEST(VectorPool, DefaultPolicyMatchesTheContract) {
  VectorPool<int> pool;
  EXPECT_EQ(pool.capacity(), 64u);
  EXPECT_EQ(pool.policy().growth_step, 0u);
  EXPECT_EQ(pool.policy().max_capacity, std::size_t{1} << 28);
  EXPECT_EQ(pool.policy().storage, StorageMode::contiguous);
}

TEST(VectorPool, HandleAtAnswersForLiveSlotsOnly) {
  VectorPool<int> pool;
  const PoolHandle a = *pool.emplace(1);
  const PoolHandle b = *pool.emplace(2);
  pool.release(a);
  EXPECT_TRUE(pool.handle_at(a.index).is_null());
  EXPECT_EQ(pool.handle_at(b.index), b);
  EXPECT_TRUE(pool.handle_at(1u << 30).is_null());
}

}  // namespace
}  // namespace pool_test
