// ActiveIndexList over a VectorPool: after every update() the list names exactly the pool's
// live slots; swap_pop scrambles the order with churn while slot_order stays sorted; the dead
// are released in phase two, once each, through the pool's release(); switching discipline
// mid-game keeps every entry (and to slot_order, sorts them).
#include <engine/pool/active_index_list.hpp>
#include <engine/pool/vector_pool.hpp>
#include <engine/pool/worker_team.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

using engine::ActiveIndexList;
using engine::ListDiscipline;

std::string discipline_name(const ::testing::TestParamInfo<ListDiscipline>& info) {
  return info.param == ListDiscipline::swap_pop ? "SwapPop" : "SlotOrder";
}

// A pool plus its list, kept in step the way a manager keeps them: spawn() emplaces and adds.
struct Managed {
  explicit Managed(ListDiscipline d, StorageMode mode = StorageMode::contiguous) : pool(policy(mode)), list(d) {}
  PoolHandle spawn(int value) {
    const PoolHandle h = *pool.emplace(value);
    list.add(h.index);
    return h;
  }
  VectorPool<Tracked> pool;
  ActiveIndexList list;
};

bool sorted(const std::vector<std::uint32_t>& v) { return std::is_sorted(v.begin(), v.end()); }

class ListDisciplines : public LifetimeChecked<::testing::TestWithParam<ListDiscipline>> {};

// A keep() that spawns (and add()s, as the header asks) while the walk runs: the list's arrays
// must not grow under the walk (a library reviewer found that a use-after-free; ASan sees it in
// the sanitizer build). The newcomers are walked from the next update() on, once each, in
// every storage mode; the list itself is never reserve()d, so the adds overflow what it holds.
TEST_P(ListDisciplines, AddInsideUpdateIsWalkedFromTheNextUpdateOn) {
  for (const StorageMode mode : {StorageMode::contiguous, StorageMode::stable, StorageMode::packed}) {
    SCOPED_TRACE(static_cast<int>(mode));
    Managed m(GetParam(), mode);
    ASSERT_TRUE(m.pool.reserve(1024));  // emplaces inside a pass must fit (no relocating growth there)
    for (int i = 0; i < 64; ++i) m.spawn(i);
    int next = 1000;
    for (int step = 0; step < 6; ++step) {
      std::map<int, int> visits;
      std::vector<int> born;
      const std::size_t before = m.pool.size();
      m.list.update(m.pool, [&](Tracked& t) {
        ++visits[t.value()];
        if (visits.size() % 2 == 0) {  // every other visit spawns one
          born.push_back(next);
          m.spawn(next++);
        }
        return t.value() % 5 != 0;  // and a fifth die
      });
      EXPECT_EQ(visits.size(), before) << "step " << step << ": every object listed before the update, once";
      for (const int b : born) EXPECT_EQ(visits.count(b), 0u) << b << " walked in the update that spawned it";
      for (const auto& [value, count] : visits) ASSERT_EQ(count, 1) << value;
      EXPECT_EQ(m.list.size(), m.pool.size());
      ASSERT_TRUE(m.list.matches(m.pool)) << "step " << step;
    }
    EXPECT_EQ(m.list.stale_entries(), 0u);
  }
}

TEST_P(ListDisciplines, UpdateVisitsEveryLiveObjectOnceAndReleasesTheMarked) {
  Managed m(GetParam());
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 200; ++i) handles.push_back(m.spawn(i));
  std::map<int, int> visits;
  const std::size_t died = m.list.update(m.pool, [&](Tracked& t) {
    ++visits[t.value()];
    return t.value() % 3 != 0;  // every third dies
  });
  EXPECT_EQ(died, 67u);
  EXPECT_EQ(visits.size(), 200u);
  for (const auto& [value, count] : visits) EXPECT_EQ(count, 1) << value;
  EXPECT_EQ(m.pool.size(), 133u);
  EXPECT_EQ(Lifetimes::live(), 133);
  EXPECT_EQ(m.pool.stats().releases, 67u);
  EXPECT_EQ(m.pool.stats().failed_releases, 0u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(m.pool.contains(handles[static_cast<std::size_t>(i)]), i % 3 != 0) << i;
  EXPECT_TRUE(m.list.matches(m.pool));
  EXPECT_EQ(m.list.size(), 133u);
  EXPECT_TRUE(m.list.queued().empty()) << "phase two merges the spawns";
  EXPECT_EQ(m.list.stale_entries(), 0u);
}

TEST_P(ListDisciplines, NothingIsReleasedDuringTheWalk) {
  Managed m(GetParam());
  for (int i = 0; i < 64; ++i) m.spawn(i);
  std::size_t live_seen_at_end = 0;
  int visited = 0;
  m.list.update(m.pool, [&](Tracked&) {
    if (++visited == 64) live_seen_at_end = m.pool.size();  // the last visit still sees all
    return false;
  });
  EXPECT_EQ(live_seen_at_end, 64u);
  EXPECT_TRUE(m.pool.empty());
  EXPECT_TRUE(m.list.empty());
}

// Randomized churn with a fixed seed: release a random 30%, refill, and check after each round
// that the list is the pool's live set, every survivor's handle still works, and the order is
// what the discipline promises.
TEST_P(ListDisciplines, ChurnKeepsTheListEqualToThePoolsLiveSet) {
  for (StorageMode mode : {StorageMode::contiguous, StorageMode::stable}) {
    Managed m(GetParam(), mode);
    std::mt19937 rng(1234);
    std::map<int, PoolHandle> alive;  // value -> handle
    int next = 0;
    for (; next < 1000; ++next) alive[next] = m.spawn(next);
    bool ever_unsorted = false;
    for (int round = 0; round < 40; ++round) {
      std::vector<int> dying;
      m.list.update(m.pool, [&](Tracked& t) {
        const bool dies = rng() % 10 < 3;
        if (dies) dying.push_back(t.value());
        return !dies;
      });
      for (int v : dying) {
        EXPECT_FALSE(m.pool.contains(alive[v]));
        alive.erase(v);
      }
      while (alive.size() < 1000) {
        alive[next] = m.spawn(next);
        ++next;
      }
      m.list.update(m.pool, [](Tracked&) { return true; });  // merges the spawns
      ASSERT_TRUE(m.list.matches(m.pool)) << "round " << round;
      ASSERT_EQ(m.pool.size(), alive.size());
      ASSERT_EQ(Lifetimes::live(), static_cast<long>(alive.size()));
      for (const auto& [value, handle] : alive) ASSERT_EQ(m.pool.get(handle)->value(), value);
      if (GetParam() == ListDiscipline::slot_order) {
        ASSERT_TRUE(sorted(m.list.indices())) << "round " << round;
      }
      ever_unsorted = ever_unsorted || !sorted(m.list.indices());
    }
    EXPECT_EQ(ever_unsorted, GetParam() == ListDiscipline::swap_pop) << "swap_pop scrambles, slot_order never";
    EXPECT_EQ(m.pool.stats().failed_releases, 0u);
    EXPECT_TRUE(m.pool.validate());
  }
}

// update_chunked on a WorkerTeam against update(): two managed pools churned by the
// same decisions (keyed by value, not by visit order) keep the same list, in the same order,
// and hand out the same slots, at every chunk count.
TEST_P(ListDisciplines, ChunkedUpdateEndsAsUpdateDoesAtEveryChunkCount) {
  engine::WorkerTeam team(3);
  for (const std::size_t chunks : {1u, 2u, 3u, 8u}) {
    SCOPED_TRACE(chunks);
    Managed serial(GetParam(), StorageMode::stable);
    Managed chunked(GetParam(), StorageMode::stable);
    int next = 0;
    for (; next < 700; ++next) {
      serial.spawn(next);
      chunked.spawn(next);
    }
    for (int round = 0; round < 12; ++round) {
      const auto dies = [round](const Tracked& t) { return (t.value() * 7 + round) % 5 == 0; };
      const std::size_t died = serial.list.update(serial.pool, [&](Tracked& t) { return !dies(t); });
      ASSERT_EQ(chunked.list.update_chunked(chunked.pool, chunks, team,
                                            [&](std::size_t, Tracked& t) { return !dies(t); }),
                died);
      for (int i = 0; i < 60; ++i, ++next) ASSERT_EQ(serial.spawn(next).index, chunked.spawn(next).index);
      ASSERT_EQ(serial.list.indices(), chunked.list.indices()) << "round " << round;
      ASSERT_EQ(serial.list.queued(), chunked.list.queued()) << "round " << round;
    }
    EXPECT_TRUE(chunked.list.matches(chunked.pool));
  }
}

TEST_P(ListDisciplines, SpawnsBetweenUpdatesAreWalkedByTheNextOne) {
  Managed m(GetParam());
  for (int i = 0; i < 10; ++i) m.spawn(i);
  m.list.update(m.pool, [](Tracked& t) { return t.value() >= 5; });
  for (int i = 10; i < 20; ++i) m.spawn(i);  // reuse the five freed slots, then fresh ones
  EXPECT_EQ(m.list.size(), 15u);
  int visited = 0;
  m.list.update(m.pool, [&](Tracked&) { return ++visited > 0; });
  EXPECT_EQ(visited, 15);
  EXPECT_TRUE(m.list.matches(m.pool));
}

TEST_P(ListDisciplines, ClearAndRebuildFollowThePool) {
  Managed m(GetParam());
  for (int i = 0; i < 50; ++i) m.spawn(i);
  m.list.update(m.pool, [](Tracked& t) { return t.value() % 2 == 0; });
  m.list.clear();
  EXPECT_TRUE(m.list.empty());
  m.list.rebuild(m.pool);
  EXPECT_TRUE(m.list.matches(m.pool));
  EXPECT_TRUE(sorted(m.list.indices())) << "rebuild lists in slot order";
  m.pool.clear();
  m.list.clear();
  EXPECT_TRUE(m.list.matches(m.pool));
}

// An owner bug: a listed object released by other means. In release builds the entry is
// dropped and counted, nothing is visited twice or released twice; debug builds assert.
TEST_P(ListDisciplines, AnEntryReleasedBehindTheListsBackIsDropped) {
  Managed m(GetParam());
  const PoolHandle victim = m.spawn(1);
  m.spawn(2);
  m.list.update(m.pool, [](Tracked&) { return true; });
  ASSERT_TRUE(m.pool.release(victim));
#if ENGINE_POOL_DEBUG
  EXPECT_DEATH(m.list.update(m.pool, [](Tracked&) { return true; }), "names a dead slot");
#else
  int visited = 0;
  EXPECT_EQ(m.list.update(m.pool, [&](Tracked&) { return ++visited > 0; }), 0u);
  EXPECT_EQ(visited, 1);
  EXPECT_EQ(m.list.stale_entries(), 1u);
  EXPECT_TRUE(m.list.matches(m.pool));
  EXPECT_EQ(m.pool.stats().failed_releases, 1u) << "the stale entry's release is refused, not repeated";
#endif
}

// What would reorder, empty or refill the list while update() walks it is refused: a debug
// build stops with a message, a release build changes nothing (and the update goes on).
TEST_P(ListDisciplines, ReorderingTheListInsideUpdateIsRefused) {
  Managed m(GetParam());
  for (int i = 0; i < 40; ++i) m.spawn(i);
  const ListDiscipline other =
      GetParam() == ListDiscipline::swap_pop ? ListDiscipline::slot_order : ListDiscipline::swap_pop;
#if ENGINE_POOL_DEBUG
  EXPECT_DEATH(m.list.update(m.pool, [&](Tracked&) { return m.list.set_discipline(other), true; }),
               "set_discipline\\(\\) inside update\\(\\)");
  EXPECT_DEATH(m.list.update(m.pool, [&](Tracked&) { return m.list.clear(), true; }), "clear\\(\\) inside update");
#else
  int visited = 0;
  m.list.update(m.pool, [&](Tracked& t) {
    ++visited;
    m.list.set_discipline(other);
    m.list.clear();
    m.list.rebuild(m.pool);
    EXPECT_EQ(m.list.update(m.pool, [](Tracked&) { return false; }), 0u) << "a nested update releases nothing";
    return t.value() % 2 == 0;
  });
  EXPECT_EQ(visited, 40);
  EXPECT_EQ(m.list.discipline(), GetParam());
  EXPECT_EQ(m.pool.size(), 20u);
  EXPECT_TRUE(m.list.matches(m.pool));
#endif
}

INSTANTIATE_TEST_SUITE_P(Disciplines, ListDisciplines,
                         ::testing::Values(ListDiscipline::swap_pop, ListDiscipline::slot_order), discipline_name);

// The accessor the walk uses: the live object in a slot, or nullptr for a free, never-used
// or out-of-range slot, without counting a stale get.
TEST(VectorPoolGetAt, AnswersOnlyForLiveSlots) {
  VectorPool<Tracked> pool(policy(StorageMode::stable, 8, 0, kDefaultMaxCapacity, 64));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 100; ++i) handles.push_back(*pool.emplace(i));  // spans two pages
  ASSERT_TRUE(pool.release(handles[70]));
  for (int i = 0; i < 100; ++i) {
    const Tracked* t = pool.get_at(handles[static_cast<std::size_t>(i)].index);
    if (i == 70) {
      EXPECT_EQ(t, nullptr);
    } else {
      ASSERT_NE(t, nullptr);
      EXPECT_EQ(t->value(), i);
      EXPECT_EQ(t, pool.get(handles[static_cast<std::size_t>(i)]));
    }
  }
  EXPECT_EQ(pool.get_at(pool.capacity()), nullptr);
  EXPECT_EQ(pool.get_at(1u << 30), nullptr);
  EXPECT_EQ(pool.stats().stale_gets, 0u);
}

TEST(ActiveIndexList, SwapPopFillsAHoleWithTheLastEntry) {
  Managed m(ListDiscipline::swap_pop);
  for (int i = 0; i < 6; ++i) m.spawn(i);  // slots 0..5
  m.list.update(m.pool, [](Tracked& t) { return t.value() != 1 && t.value() != 3; });
  EXPECT_EQ(m.list.indices(), (std::vector<std::uint32_t>{0, 4, 2, 5}))
      << "3 takes the last (5) first, then 1 takes the new last (4)";
}

TEST(ActiveIndexList, SlotOrderMergesSpawnsIntoPlace) {
  Managed m(ListDiscipline::slot_order);
  for (int i = 0; i < 8; ++i) m.spawn(i);                                // slots 0..7
  m.list.update(m.pool, [](Tracked& t) { return t.value() % 2 == 0; });  // 1, 3, 5, 7 die
  EXPECT_EQ(m.list.indices(), (std::vector<std::uint32_t>{0, 2, 4, 6}));
  m.spawn(10);  // the highest dead slot was released first, so the LIFO stack gives 1 first
  m.spawn(11);
  EXPECT_EQ(m.list.queued(), (std::vector<std::uint32_t>{1, 3}));
  m.list.update(m.pool, [](Tracked& t) { return t.value() != 4; });
  EXPECT_EQ(m.list.indices(), (std::vector<std::uint32_t>{0, 1, 2, 3, 6}));
}

TEST(ActiveIndexList, SwitchingToSlotOrderMidGameSortsOnce) {
  Managed m(ListDiscipline::swap_pop);
  std::mt19937 rng(7);
  for (int i = 0; i < 500; ++i) m.spawn(i);
  for (int round = 0; round < 10; ++round) {
    m.list.update(m.pool, [&](Tracked&) { return rng() % 4 != 0; });
    while (m.pool.size() < 500) m.spawn(round);
  }
  ASSERT_FALSE(sorted(m.list.indices())) << "churn scrambled the swap-pop list";
  m.list.set_discipline(ListDiscipline::slot_order);
  EXPECT_TRUE(sorted(m.list.indices()));
  EXPECT_TRUE(m.list.matches(m.pool));
  m.spawn(1);  // queued now, merged by the next update
  m.list.update(m.pool, [&](Tracked&) { return rng() % 4 != 0; });
  EXPECT_TRUE(sorted(m.list.indices()));
  EXPECT_TRUE(m.list.matches(m.pool));

  m.spawn(2);
  m.list.set_discipline(ListDiscipline::swap_pop);  // the queued spawn joins the list
  EXPECT_TRUE(m.list.queued().empty());
  EXPECT_TRUE(m.list.matches(m.pool));
}

TEST(ActiveIndexList, AWarmedListNeverGrowsItsBuffers) {
  for (ListDiscipline d : {ListDiscipline::swap_pop, ListDiscipline::slot_order}) {
    Managed m(d);
    m.list.reserve(2000);
    m.pool.reserve(2000);
    std::mt19937 rng(99);
    for (int i = 0; i < 1000; ++i) m.spawn(i);
    const std::size_t capacity = m.list.indices().capacity();
    for (int round = 0; round < 30; ++round) {
      m.list.update(m.pool, [&](Tracked&) { return rng() % 3 != 0; });
      while (m.pool.size() < 1000) m.spawn(round);
    }
    EXPECT_EQ(m.list.indices().capacity(), capacity);
  }
}

// The pool call the list's walk goes through: entries in the order given, repeats included,
// nullptr for a released or never-used slot, and the rules of a pass (release() refused).
TEST(ForEachListed, VisitsTheListedSlotsInOrderAndNamesTheDeadInEveryLayout) {
  for (StorageMode mode : {StorageMode::contiguous, StorageMode::stable, StorageMode::packed}) {
    VectorPool<Tracked> pool(policy(mode, 8, 0, kDefaultMaxCapacity, 16));  // stable: several pages
    std::vector<PoolHandle> handles;
    for (int i = 0; i < 40; ++i) handles.push_back(*pool.emplace(i));
    ASSERT_TRUE(pool.release(handles[7]));
    const std::vector<std::uint32_t> listed{30, 7, 2, 2, 39, 1000};
    std::vector<int> seen;
    pool.for_each_listed(listed.data(), listed.size(), [&](std::size_t k, Tracked* t) {
      EXPECT_EQ(seen.size(), k);
      seen.push_back(t == nullptr ? -1 : t->value());
    });
    EXPECT_EQ(seen, (std::vector<int>{30, -1, 2, 2, 39, -1})) << static_cast<int>(mode);
    const auto release_first = [&](std::size_t, Tracked*) { return pool.release(handles[0]); };
#if ENGINE_POOL_DEBUG
    EXPECT_DEATH(pool.for_each_listed(listed.data(), 1, release_first), "inside for_each");
#else
    pool.for_each_listed(listed.data(), 1, [&](std::size_t k, Tracked* t) { EXPECT_FALSE(release_first(k, t)); });
#endif
    EXPECT_TRUE(pool.contains(handles[0]));
    EXPECT_EQ(pool.size(), 39u);
  }
}

}  // namespace
}  // namespace pool_test
