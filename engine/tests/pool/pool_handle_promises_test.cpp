// The handle promises the README states, for both pools, at the stated numbers:
// - a stale handle matches again only after 2^31 reuses of its slot (not before);
// - a handle of another pool is refused unless the two pools' seeds collide near that slot
//   (about reuses / 2^31): pools created any distance apart (1, 128, 256 ...) refuse each other's.
// Reusing a slot 2^31 times would take minutes, so a test hook sets the slot's generation to
// where 2^31 - 2 reuses would have left it.
#include <engine/pool/concurrent_pool.hpp>
#include <engine/pool/vector_pool.hpp>
#include <engine/pool/detail/pool_access.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "support/pool_test_support.hpp"

namespace engine::detail {
struct PoolTestAccess {
  template <class T>
  static void set_free_generation(VectorPool<T>& pool, std::uint32_t index, std::uint32_t generation) {
    ASSERT_FALSE(is_live_generation(generation));
    pool.visit([&](auto& p) { PoolAccess::table(p).slots_[index].generation = generation; });
  }
  template <class T>
  static void set_free_generation(ConcurrentPool<T>& pool, std::uint32_t index, std::uint32_t generation) {
    ASSERT_FALSE(is_live_generation(generation));
    pool.meta_at(index)->generation.store(generation, std::memory_order_relaxed);
  }
};
}  // namespace engine::detail

namespace pool_test {
namespace {

using engine::ConcurrentPool;
using engine::ConcurrentPoolConfig;
using engine::detail::PoolTestAccess;

constexpr std::uint64_t kWrap = std::uint64_t{1} << 31;  // reuses of one slot before a handle matches again

// The free generation a slot has after `reuses` more emplace/release cycles than the one
// that issued live generation `issued`: each cycle adds 2.
constexpr std::uint32_t free_after_reuses(std::uint32_t issued, std::uint64_t reuses) {
  return static_cast<std::uint32_t>(issued + 1u + 2u * reuses);
}

template <class Pool>
void expect_wraps_at_exactly_2_31(Pool& pool) {
  const PoolHandle h = *pool.emplace(7);
  ASSERT_TRUE(pool.release(h));
  // As if the slot had been reused 2^31 - 2 more times since.
  PoolTestAccess::set_free_generation(pool, h.index, free_after_reuses(h.generation, kWrap - 2));
  const PoolHandle reuse_2_31_minus_1 = *pool.emplace(8);
  ASSERT_EQ(reuse_2_31_minus_1.index, h.index) << "the test needs the same slot back";
  EXPECT_NE(reuse_2_31_minus_1.generation, h.generation);
  EXPECT_EQ(pool.get(h), nullptr) << "stale after 2^31 - 1 reuses";
  EXPECT_FALSE(pool.contains(h));
  ASSERT_TRUE(pool.release(reuse_2_31_minus_1));
  const PoolHandle reuse_2_31 = *pool.emplace(9);
  ASSERT_EQ(reuse_2_31.index, h.index);
  EXPECT_EQ(reuse_2_31.generation, h.generation) << "the documented limit: the word wraps after 2^31 reuses";
  EXPECT_TRUE(pool.contains(h));
  ASSERT_TRUE(pool.release(reuse_2_31));
}

TEST(HandlePromises, VectorPoolStaleHandleMatchesAgainOnlyAfter2To31Reuses) {
  for (const StorageMode mode : {StorageMode::contiguous, StorageMode::stable}) {
    VectorPool<int> pool(policy(mode, 64));
    expect_wraps_at_exactly_2_31(pool);
    EXPECT_TRUE(pool.validate());
  }
}

TEST(HandlePromises, ConcurrentPoolStaleHandleMatchesAgainOnlyAfter2To31Reuses) {
  ConcurrentPool<int> pool(ConcurrentPoolConfig{64, 64, 1024});
  expect_wraps_at_exactly_2_31(pool);
  EXPECT_EQ(pool.size(), 0u);
}

// A stale handle of a much-reused slot stays refused below the wrap: 2^24 reuses (where the
// old 24-bit counter wrapped) is nowhere near it.
TEST(HandlePromises, ConcurrentPoolStaleHandleIsRefusedAfter2To24Reuses) {
  ConcurrentPool<int> pool(ConcurrentPoolConfig{64, 64, 1024});
  const PoolHandle h = *pool.emplace(1);
  ASSERT_TRUE(pool.release(h));
  PoolTestAccess::set_free_generation(pool, h.index, free_after_reuses(h.generation, (std::uint64_t{1} << 24) - 1));
  const PoolHandle again = *pool.emplace(2);
  ASSERT_EQ(again.index, h.index);
  EXPECT_EQ(pool.get(h), nullptr);
  EXPECT_FALSE(pool.try_release(h));
  EXPECT_EQ(*pool.get(again), 2);
  pool.release(again);
}

constexpr int kPools = 300;  // pairs 1, 128 and 256 creations apart among them

TEST(HandlePromises, VectorPoolsRefuseEachOthersHandlesWhateverTheirDistance) {
  std::vector<std::unique_ptr<VectorPool<int>>> pools;
  std::vector<PoolHandle> handles;
  for (int p = 0; p < kPools; ++p) {
    pools.push_back(std::make_unique<VectorPool<int>>(policy(StorageMode::contiguous, 64)));
    for (int reuse = 0; reuse < p % 5; ++reuse) pools.back()->release(*pools.back()->emplace(-1));
    handles.push_back(*pools.back()->emplace(p));  // slot 0 in every pool
  }
  int accepted = 0;
  for (int a = 0; a < kPools; ++a) {
    for (int b = 0; b < kPools; ++b) {
      if (a == b) continue;
      accepted += pools[static_cast<std::size_t>(b)]->contains(handles[static_cast<std::size_t>(a)]) ? 1 : 0;
      accepted += pools[static_cast<std::size_t>(b)]->get(handles[static_cast<std::size_t>(a)]) != nullptr ? 1 : 0;
    }
  }
  EXPECT_EQ(accepted, 0);
}

TEST(HandlePromises, ConcurrentPoolsRefuseEachOthersHandlesWhateverTheirDistance) {
  std::vector<std::unique_ptr<ConcurrentPool<int>>> pools;
  std::vector<PoolHandle> handles;
  for (int p = 0; p < kPools; ++p) {
    pools.push_back(std::make_unique<ConcurrentPool<int>>(ConcurrentPoolConfig{64, 64, 64}));
    for (int reuse = 0; reuse < p % 5; ++reuse) pools.back()->release(*pools.back()->emplace(-1));
    handles.push_back(*pools.back()->emplace(p));
  }
  ASSERT_EQ(handles[0].index, handles[128].index) << "same slot: only the generation tells them apart";
  int accepted = 0;
  for (int a = 0; a < kPools; ++a) {
    for (int b = 0; b < kPools; ++b) {
      if (a == b) continue;
      ConcurrentPool<int>& other = *pools[static_cast<std::size_t>(b)];
      const PoolHandle foreign = handles[static_cast<std::size_t>(a)];
      accepted += other.contains(foreign) ? 1 : 0;
      accepted += other.get(foreign) != nullptr ? 1 : 0;
      accepted += other.try_release(foreign) ? 1 : 0;  // would destroy the other pool's object
    }
  }
  EXPECT_EQ(accepted, 0);
  for (int p = 0; p < kPools; ++p) {
    EXPECT_EQ(*pools[static_cast<std::size_t>(p)]->get(handles[static_cast<std::size_t>(p)]), p);
  }
}

}  // namespace
}  // namespace pool_test
