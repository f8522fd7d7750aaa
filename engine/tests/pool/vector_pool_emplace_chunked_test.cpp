// VectorPool<T>::emplace_chunked: a batch of emplaces built on a team ends every
// layout exactly as the same emplaces one at a time do (same slots, positions, generations, so
// the same handles and walk order) at any chunk count and in any task order; the part that needs
// growth grows as emplace() does; a cap stops it where emplace() would have failed.
#include <engine/pool/vector_pool.hpp>
#include <engine/pool/worker_team.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

// `objects` (1,000) in 64-slot pages, every fifth released: a free stack of objects / 5 to pop in
// order, then never-used slots, then growth.
VectorPool<Body> churned_pool(StorageMode mode, std::size_t max = kDefaultMaxCapacity, std::uint32_t objects = 1000) {
  VectorPool<Body> pool(policy(mode, 8, 0, max));
  std::vector<PoolHandle> handles;
  for (std::uint32_t i = 0; i < objects; ++i) handles.push_back(*pool.emplace(Body{i, 0}));
  for (std::size_t i = 0; i < handles.size(); i += 5) pool.release(handles[i]);
  return pool;
}

// Which slots are live, each one's object, and the ids in walk order: what tells two pools apart
// (generations are seeded per pool, so handles are compared within a pool: see below).
struct Snapshot {
  std::vector<std::int64_t> handles;  // per slot: the id of its object, -1 where nothing lives
  std::vector<std::uint32_t> walk;
  std::size_t size = 0, capacity = 0;
  std::uint64_t growth_events = 0;
  bool operator==(const Snapshot& o) const {
    return handles == o.handles && walk == o.walk && size == o.size && capacity == o.capacity &&
           growth_events == o.growth_events;
  }
};
Snapshot snapshot(const VectorPool<Body>& pool) {
  Snapshot s;
  for (std::size_t i = 0; i < pool.capacity(); ++i) {
    const Body* b = pool.get_at(i);
    s.handles.push_back(b != nullptr ? std::int64_t{b->id} : -1);
  }
  pool.for_each([&](const Body& b) { s.walk.push_back(b.id); });
  s.size = pool.size();
  s.capacity = pool.capacity();
  s.growth_events = pool.stats().growth_events;
  return s;
}

const auto make_body = [](std::size_t i) noexcept { return Body{static_cast<std::uint32_t>(5000 + i), 7}; };

template <class Run>
void expect_same_as_emplaces(StorageMode mode, std::size_t count, std::size_t chunks, Run&& run,
                             std::uint32_t objects = 1000) {
  VectorPool<Body> reference = churned_pool(mode, kDefaultMaxCapacity, objects);
  VectorPool<Body> batched = churned_pool(mode, kDefaultMaxCapacity, objects);
  for (std::size_t i = 0; i < count; ++i) ASSERT_TRUE(reference.emplace(make_body(i)));
  ASSERT_EQ(batched.emplace_chunked(count, chunks, run, make_body), count);
  ASSERT_TRUE(snapshot(batched) == snapshot(reference)) << count << " objects in " << chunks << " chunks";
  EXPECT_TRUE(batched.validate());
  // Each new object's handle works and is live (odd generation, occupied), and the next emplace
  // takes the same slot in both.
  for (std::size_t i = 0; i < batched.capacity(); ++i) {
    const PoolHandle h = batched.handle_at(i);
    if (h.is_null()) continue;
    ASSERT_TRUE(batched.contains(h));
    ASSERT_EQ(batched.get(h), batched.get_at(i));
  }
  EXPECT_EQ(batched.emplace(Body{1, 0})->index, reference.emplace(Body{1, 0})->index);
}

class EmplaceChunked : public ::testing::TestWithParam<StorageMode> {};

TEST_P(EmplaceChunked, FromTheFreeStackEndsAsEmplacesInOrderDo) {
  for (const std::size_t chunks : {1u, 2u, 3u, 7u}) {
    expect_same_as_emplaces(GetParam(), 150, chunks, InlineRun{});
    expect_same_as_emplaces(GetParam(), 150, chunks, BackwardsRun{});
  }
}

TEST_P(EmplaceChunked, PastTheFreeStackAndPastTheCapacityGrowsAsEmplaceDoes) {
  const std::size_t room = churned_pool(GetParam()).capacity() - 800;  // the free stack, then never-used slots
  for (const std::size_t chunks : {1u, 2u, 5u}) {
    expect_same_as_emplaces(GetParam(), room, chunks, BackwardsRun{});        // exactly what fits
    expect_same_as_emplaces(GetParam(), room + 700, chunks, BackwardsRun{});  // and then growth
  }
}

// Tasks take blocks of 256 claims in turn: batches of many blocks, where the free stack
// (2,000 slots) ends inside a block, then the never-used slots and growth, at chunk counts that
// do and do not divide the block count.
TEST_P(EmplaceChunked, ManyBlocksEndAsEmplacesInOrderDo) {
  constexpr std::uint32_t block = 256;  // emplace_chunked builds in blocks of 256 (parallel.hpp)
  const std::size_t room = churned_pool(GetParam(), kDefaultMaxCapacity, 10000).capacity() - 8000;
  for (const std::size_t chunks : {2u, 3u, 4u, 7u}) {
    expect_same_as_emplaces(GetParam(), 9 * block + 17, chunks, BackwardsRun{}, 10000);
    expect_same_as_emplaces(GetParam(), room + 3 * block, chunks, InlineRun{}, 10000);
  }
}

TEST_P(EmplaceChunked, OnAWorkerTeamEndsAsEmplacesInOrderDo) {
  engine::WorkerTeam team(3);
  const auto run = [&](std::size_t n, auto&& task) { team(n, task); };
  expect_same_as_emplaces(GetParam(), 600, 3, run);
  expect_same_as_emplaces(GetParam(), 5000, 8, run);
}

TEST_P(EmplaceChunked, StopsAtTheCapWhereEmplaceFails) {
  VectorPool<Body> reference = churned_pool(GetParam(), 1024);
  VectorPool<Body> batched = churned_pool(GetParam(), 1024);
  std::size_t fitted = 0;
  while (fitted < 500 && reference.emplace(make_body(fitted))) ++fitted;
  ASSERT_LT(fitted, 500u) << "the cap must bite";
  EXPECT_EQ(batched.emplace_chunked(500, 4, BackwardsRun{}, make_body), fitted);
  EXPECT_TRUE(snapshot(batched) == snapshot(reference));
  EXPECT_TRUE(batched.validate());
}

TEST_P(EmplaceChunked, NothingAskedChangesNothing) {
  VectorPool<Body> pool = churned_pool(GetParam());
  const Snapshot before = snapshot(pool);
  EXPECT_EQ(pool.emplace_chunked(0, 4, InlineRun{}, make_body), 0u);
  EXPECT_TRUE(snapshot(pool) == before);
}

INSTANTIATE_TEST_SUITE_P(AllModes, EmplaceChunked, ::testing::ValuesIn(kAllModes), mode_name);

}  // namespace
}  // namespace pool_test
