// VectorPool<T>'s chunked passes: erase_if_chunked ends every layout exactly as
// erase_if does (same victims, same free stack, so the same slots for the next emplaces) at
// any chunk count, run inline or on a WorkerTeam; for_each_listed_chunked visits each entry once.
#include <engine/pool/vector_pool.hpp>
#include <engine/pool/worker_team.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <cstdint>
#include <string>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

struct NamedBody {  // a destructor runs: erase_if's mark-all-then-destroy path
  NamedBody(std::uint32_t i, std::uint32_t s) : id(i), steps(s), name(std::to_string(i)) {}
  std::uint32_t id;
  std::uint32_t steps;
  std::string name;
};

// A pool of 1,000 objects in 64-slot pages with every fifth released: holes, several pages,
// a free stack to keep in order.
template <class T>
VectorPool<T> churned_pool(StorageMode mode, std::uint32_t count = 1000,
                           std::vector<PoolHandle>* handed_out = nullptr) {
  VectorPool<T> pool(policy(mode, 64));
  std::vector<PoolHandle> local;
  std::vector<PoolHandle>& handles = handed_out != nullptr ? *handed_out : local;
  for (std::uint32_t i = 0; i < count; ++i) handles.push_back(*pool.emplace(T{i, 0}));
  for (std::size_t i = 0; i < handles.size(); i += 5) pool.release(handles[i]);
  return pool;
}

bool doomed(std::uint32_t id) { return id % 3 == 0 || id % 7 == 1; }

template <class T>
std::vector<std::uint32_t> ids_in_walk_order(const VectorPool<T>& pool) {
  std::vector<std::uint32_t> ids;
  pool.for_each([&](const T& o) { ids.push_back(o.id); });
  return ids;
}

// The same pool through erase_if and through erase_if_chunked(chunks, run): same count, same
// survivors in the same walk order, the same handles gone stale, and the next emplaces (every
// freed slot and 50 more, up to 3,000) take the same slots.
template <class T, class Run, class Doomed = bool (*)(std::uint32_t)>
void expect_same_as_erase_if(StorageMode mode, std::size_t chunks, Run&& run, Doomed is_doomed = doomed,
                             std::uint32_t count = 1000) {
  std::vector<PoolHandle> reference_handles, chunked_handles;
  VectorPool<T> reference = churned_pool<T>(mode, count, &reference_handles);
  VectorPool<T> chunked = churned_pool<T>(mode, count, &chunked_handles);
  const std::size_t expected = reference.erase_if([&](T& o) {
    ++o.steps;
    return is_doomed(o.id);
  });
  std::vector<std::uint32_t> visits_per_chunk(chunks, 0);
  const std::size_t erased = chunked.erase_if_chunked(chunks, run, [&](std::size_t k, T& o) {
    ++visits_per_chunk[k];
    ++o.steps;
    return is_doomed(o.id);
  });
  ASSERT_EQ(erased, expected);
  EXPECT_GT(expected, 0u);
  std::uint32_t visited = 0;
  for (const std::uint32_t v : visits_per_chunk) visited += v;
  EXPECT_EQ(visited, reference.size() + expected);  // every live object once
  EXPECT_EQ(ids_in_walk_order(chunked), ids_in_walk_order(reference));
  for (std::size_t i = 0; i < chunked_handles.size(); ++i) {  // the victims' handles went stale, no others
    ASSERT_EQ(chunked.contains(chunked_handles[i]), reference.contains(reference_handles[i])) << "object " << i;
    if (const T* o = chunked.get(chunked_handles[i])) {
      ASSERT_EQ(o->id, i);
    }
  }
  chunked.for_each([](const T& o) { EXPECT_EQ(o.steps, 1u); });
  const auto refills = static_cast<std::uint32_t>(std::min<std::size_t>(expected + 50, 3000));
  for (std::uint32_t i = 0; i < refills; ++i) {
    const PoolHandle a = *reference.emplace(T{5000 + i, 0});
    const PoolHandle b = *chunked.emplace(T{5000 + i, 0});
    ASSERT_EQ(a.index, b.index) << "emplace " << i << " after the erase";
  }
  EXPECT_EQ(ids_in_walk_order(chunked), ids_in_walk_order(reference));
  EXPECT_TRUE(chunked.validate());
}

class ChunkedErase : public ::testing::TestWithParam<StorageMode> {};

TEST_P(ChunkedErase, EndsAsEraseIfDoesAtEveryChunkCount) {
  for (const std::size_t chunks : {1u, 2u, 3u, 8u, 40u}) {
    SCOPED_TRACE(chunks);
    expect_same_as_erase_if<Body>(GetParam(), chunks, InlineRun{});
    expect_same_as_erase_if<Body>(GetParam(), chunks, BackwardsRun{});
  }
}

// Enough victims (over 1,024) that every layout releases them on the team too
// (release_victims_chunked): every pattern of holes and movers, above and below the new end.
TEST_P(ChunkedErase, ManyVictimsEndAsEraseIfDoesAtEveryChunkCount) {
  const auto hashed = [](std::uint32_t id) { return ((id * 2654435761u) >> 7) % 5 < 2; };
  const std::vector<std::pair<const char*, std::function<bool(std::uint32_t)>>> patterns = {
      {"mixed", doomed},
      {"all", [](std::uint32_t) { return true; }},
      {"the newest", [](std::uint32_t id) { return id >= 9000; }},
      {"the oldest", [](std::uint32_t id) { return id < 4000; }},
      {"all but one", [](std::uint32_t id) { return id != 7777; }},
      {"every other", [](std::uint32_t id) { return id % 2 == 0; }},
      {"scattered", hashed},
  };
  engine::WorkerTeam team(4);
  for (const auto& [name, pattern] : patterns) {
    for (const std::size_t chunks : {2u, 3u, 8u}) {
      SCOPED_TRACE(std::string(name) + ", chunks " + std::to_string(chunks));
      expect_same_as_erase_if<Body>(GetParam(), chunks, InlineRun{}, pattern, 12000);
      expect_same_as_erase_if<Body>(GetParam(), chunks, BackwardsRun{}, pattern, 12000);
      expect_same_as_erase_if<Body>(GetParam(), chunks, team, pattern, 12000);
    }
  }
}

TEST_P(ChunkedErase, EndsAsEraseIfDoesWhenDestructorsRun) {
  for (const std::size_t chunks : {1u, 3u, 8u}) {
    SCOPED_TRACE(chunks);
    expect_same_as_erase_if<NamedBody>(GetParam(), chunks, BackwardsRun{});
  }
}

TEST_P(ChunkedErase, EndsAsEraseIfDoesOnAWorkerTeam) {
  engine::WorkerTeam team(4);
  for (const std::size_t chunks : {2u, 4u, 8u}) {
    SCOPED_TRACE(chunks);
    expect_same_as_erase_if<Body>(GetParam(), chunks, team);
    expect_same_as_erase_if<NamedBody>(GetParam(), chunks, team);
  }
}

TEST_P(ChunkedErase, AnEmptyPoolAndMoreChunksThanObjectsAreFine) {
  VectorPool<Body> pool(policy(GetParam(), 64));
  EXPECT_EQ(pool.erase_if_chunked(4, InlineRun{}, [](std::size_t, Body&) { return true; }), 0u);
  pool.emplace(Body{1, 0});
  pool.emplace(Body{2, 0});
  EXPECT_EQ(pool.erase_if_chunked(16, InlineRun{}, [](std::size_t, Body& b) { return b.id == 2; }), 1u);
  EXPECT_EQ(ids_in_walk_order(pool), std::vector<std::uint32_t>{1});
  EXPECT_EQ(pool.erase_if_chunked(0, InlineRun{}, [](std::size_t k, Body&) { return k == 0; }), 1u);  // 0 -> 1 chunk
  EXPECT_TRUE(pool.empty());
}

TEST_P(ChunkedErase, ListedChunksVisitEveryEntryOnceAndNullForTheDead) {
  VectorPool<Body> pool = churned_pool<Body>(GetParam());
  std::vector<std::uint32_t> listed;
  for (std::uint32_t i = 0; i < 1000; ++i) listed.push_back(i);  // every fifth slot is dead
  engine::WorkerTeam team(3);
  std::vector<std::atomic<int>> seen(listed.size());
  std::atomic<int> dead{0};
  pool.for_each_listed_chunked(listed.data(), listed.size(), 7, team, [&](std::size_t, std::size_t i, Body* b) {
    seen[i].fetch_add(1);
    if (b == nullptr) {
      dead.fetch_add(1);
    } else {
      EXPECT_NE(b->id % 5, 0u);
    }
  });
  for (const std::atomic<int>& s : seen) EXPECT_EQ(s.load(), 1);
  EXPECT_EQ(dead.load(), 200);
}

INSTANTIATE_TEST_SUITE_P(AllModes, ChunkedErase, ::testing::ValuesIn(kAllModes), mode_name);

TEST(WorkerTeam, RunsEveryTaskOnceAtEveryTeamSize) {
  for (const std::size_t threads : {1u, 2u, 3u, 8u}) {
    engine::WorkerTeam team(threads);
    EXPECT_EQ(team.size(), threads);
    for (const std::size_t tasks : {0u, 1u, 2u, 7u, 64u}) {
      for (int round = 0; round < 20; ++round) {
        std::vector<std::atomic<int>> ran(tasks);
        team(tasks, [&](std::size_t k) { ran[k].fetch_add(1); });
        for (const std::atomic<int>& r : ran) ASSERT_EQ(r.load(), 1);
      }
    }
  }
}

// A team resized after it has run: the new workers join the next run, not an old one (they
// once took an old run's tasks and left a run twice, so the caller could go on while a task still
// ran). The TSan build is where this fails without the fix: it reports the stale worker's reads
// of the run's task against the caller's writes for the next run.
TEST(WorkerTeam, WorkersStartedAfterRunsWaitForTheNextOne) {
  engine::WorkerTeam team(2);
  std::atomic<int> ran{0};
  for (int i = 0; i < 5; ++i) team(4, [&](std::size_t) { ran.fetch_add(1); });
  team.resize(3);
  for (int round = 0; round < 50; ++round) {
    std::vector<int> slow(6, 0);  // plain ints: every task must have finished when the run returns
    team(6, [&](std::size_t k) {
      std::this_thread::sleep_for(std::chrono::microseconds(k * 20));
      slow[k] = 1;
    });
    for (const int s : slow) ASSERT_EQ(s, 1) << "round " << round;
  }
  EXPECT_EQ(ran.load(), 20);
}

// wake() gives the workers no run: woken ahead of runs, or with none coming, they run every
// task of each run once and nothing else (a worker that took a wake-up for a run would run a
// finished run's tasks again, or none of the next one's).
TEST(WorkerTeam, WakeAheadOfARunRunsEveryTaskOnce) {
  engine::WorkerTeam team(3);
  team.wake();  // nothing to run yet
  for (int round = 0; round < 40; ++round) {
    if (round % 4 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // past the spin: asleep
    team.wake();
    if (round % 2 == 0) team.wake();  // twice, as a caller may
    std::vector<std::atomic<int>> ran(5);
    team(5, [&](std::size_t k) { ran[k].fetch_add(1); });
    for (const std::atomic<int>& r : ran) ASSERT_EQ(r.load(), 1) << "round " << round;
  }
  engine::WorkerTeam alone(1);
  alone.wake();  // no workers: nothing to wake
  int inline_runs = 0;
  alone(3, [&](std::size_t) { ++inline_runs; });
  EXPECT_EQ(inline_runs, 3);
}

// A run does not wait for a worker that claimed no task (one still waking up): the threads that
// came take every task, and the run returns. A worker that arrives after that must take nothing
// of the finished run: each run's task and its results (plain ints, in storage that dies with
// the run) are used by that run alone. Pauses past the workers' spin put them to sleep before
// some runs, so they come late; the sanitizer builds see any late use of a dead run's storage.
TEST(WorkerTeam, LateWorkersTakeNothingOfAFinishedRun) {
  engine::WorkerTeam team(3);
  for (int round = 0; round < 60; ++round) {
    if (round % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(round % 2 == 0 ? 1 : 3));
    auto ran = std::make_unique<std::vector<int>>(4, 0);
    team(4, [&ran](std::size_t k) { (*ran)[k] += 1; });
    for (const int r : *ran) ASSERT_EQ(r, 1) << "round " << round;
  }
}

// run_beside: every task once and beside() once on the caller, at every team size; a run the
// caller starts inside beside() runs inline on the caller; with one thread, beside() comes first.
TEST(WorkerTeam, RunBesideRunsEveryTaskOnceAndBesideOnTheCaller) {
  for (std::size_t threads : {1u, 2u, 3u, 8u}) {
    engine::WorkerTeam team(threads);
    for (int round = 0; round < 50; ++round) {
      std::vector<std::atomic<int>> ran(16);
      std::vector<std::thread::id> inner(4);
      int besides = 0;
      const std::thread::id caller = std::this_thread::get_id();
      std::thread::id beside_thread;
      team.run_beside(
          ran.size(), [&](std::size_t k) { ran[k].fetch_add(1); },
          [&] {
            ++besides;
            beside_thread = std::this_thread::get_id();
            team(inner.size(), [&](std::size_t k) { inner[k] = std::this_thread::get_id(); });
          });
      EXPECT_EQ(besides, 1);
      EXPECT_EQ(beside_thread, caller);
      for (const std::thread::id& id : inner) EXPECT_EQ(id, caller) << "a run inside beside() is inline";
      for (std::size_t k = 0; k < ran.size(); ++k) ASSERT_EQ(ran[k].load(), 1) << threads << " threads, task " << k;
    }
  }
  engine::WorkerTeam one(1);
  std::vector<int> order;
  one.run_beside(
      3, [&](std::size_t k) { order.push_back(static_cast<int>(k)); }, [&] { order.push_back(-1); });
  EXPECT_EQ(order, (std::vector<int>{-1, 0, 1, 2}));
}

TEST(WorkerTeam, RunBesideFinishesTheTasksBeforeBesidesExceptionGoesOn) {
  engine::WorkerTeam team(3);
  std::atomic<int> ran{0};
  EXPECT_THROW(team.run_beside(
                   64,
                   [&](std::size_t) {
                     std::this_thread::sleep_for(std::chrono::microseconds(50));
                     ran.fetch_add(1);
                   },
                   [] { throw std::runtime_error("beside"); }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 64) << "every task ran before the exception left run_beside";
  std::atomic<int> after{0};
  team(8, [&](std::size_t) { after.fetch_add(1); });  // the team still works
  EXPECT_EQ(after.load(), 8);
}

TEST(WorkerTeam, ResizesAndRethrowsATasksException) {
  engine::WorkerTeam team(1);
  team.resize(4);
  EXPECT_EQ(team.size(), 4u);
  EXPECT_THROW(team(16,
                    [](std::size_t k) {
                      if (k == 5) throw std::runtime_error("task 5");
                    }),
               std::runtime_error);
  std::atomic<int> after{0};
  team(16, [&](std::size_t) { after.fetch_add(1); });  // the team still works
  EXPECT_EQ(after.load(), 16);
  team.resize(0);  // 0 means 1: the caller alone
  EXPECT_EQ(team.size(), 1u);
  EXPECT_GE(engine::WorkerTeam::hardware_threads(), 1u);
  EXPECT_LE(engine::WorkerTeam::hardware_threads(4), 4u);
}

// set_active(n): the runs that follow use n of the team's threads, the caller included, and
// set_active(1) is the single-threaded program (inline, in order). No thread starts or stops.
TEST(WorkerTeam, SetActiveUsesThatManyThreads) {
  engine::WorkerTeam team(4);
  EXPECT_EQ(team.active(), 4u);
  team.set_active(1);
  EXPECT_EQ(team.active(), 1u);
  std::vector<std::size_t> order;
  team(8, [&](std::size_t k) { order.push_back(k); });  // a plain vector: inline or a race
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  team.set_active(2);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::thread::id> ran_on(32);
    team(ran_on.size(), [&](std::size_t k) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));  // long enough for every worker to come
      ran_on[k] = std::this_thread::get_id();
    });
    std::sort(ran_on.begin(), ran_on.end());
    const auto threads = std::unique(ran_on.begin(), ran_on.end()) - ran_on.begin();
    ASSERT_LE(threads, 2) << "round " << round;
  }
  team.set_active(100);
  EXPECT_EQ(team.active(), 4u) << "at most the team";
  team.set_active(0);
  EXPECT_EQ(team.active(), 1u);
  team.resize(3);
  EXPECT_EQ(team.active(), 3u) << "resize uses every thread again";
}

// A worker held up in its task (as when the OS takes its core away) holds only that task: the
// caller takes every other one, then sleeps until the held one ends, and the run returns with
// all of them done.
TEST(WorkerTeam, TheCallerTakesTheTasksAHeldUpWorkerLeaves) {
  engine::WorkerTeam team(2);
  const std::thread::id caller = std::this_thread::get_id();
  for (int round = 0; round < 5; ++round) {
    std::vector<int> ran(16, 0);  // plain ints: every task must have finished when the run returns
    std::atomic<int> on_caller{0};
    team(ran.size(), [&](std::size_t k) {
      if (std::this_thread::get_id() == caller) {
        on_caller.fetch_add(1);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the worker's first task holds it
      }
      ran[k] = 1;
    });
    for (const int r : ran) ASSERT_EQ(r, 1) << "round " << round;
    EXPECT_GE(on_caller.load(), 14) << "round " << round;
  }
}

}  // namespace
}  // namespace pool_test
