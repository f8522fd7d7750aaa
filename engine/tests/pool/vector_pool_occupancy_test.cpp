// VectorPool<T>::for_each_occupancy_word and occupancy_page_slots: the read-only view a memory
// map is built from. The words must cover every position once, in address order, agree with
// active_indices(), stop at capacity (a short last word says so), and never allocate.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using engine::GrowthPolicy;
using engine::PoolHandle;
using engine::StorageMode;
using engine::VectorPool;

struct Shot {
  float x, y, vx, vy;
};

// Every live position the words report, in the order reported; checks coverage on the way.
std::vector<std::uint32_t> live_from_words(const VectorPool<Shot>& pool, std::size_t& positions) {
  std::vector<std::uint32_t> live;
  positions = 0;
  std::size_t expected_first = 0;
  pool.for_each_occupancy_word([&](std::size_t first, std::uint64_t bits, unsigned valid) {
    EXPECT_EQ(first, expected_first) << "words must tile the positions in address order";
    EXPECT_GE(valid, 1u);
    EXPECT_LE(valid, 64u);
    if (valid < 64) {
      EXPECT_EQ(bits >> valid, 0u) << "no live bit past the valid ones";
    }
    for (unsigned i = 0; i < valid; ++i) {
      if ((bits >> i) & 1u) live.push_back(static_cast<std::uint32_t>(first + i));
    }
    positions += valid;
    expected_first = first + valid;
  });
  return live;
}

TEST(VectorPoolOccupancy, WordsMatchActiveIndicesWithKnownHoles) {
  GrowthPolicy policy;
  policy.initial_capacity = 200;  // not a multiple of 64: the last word is short
  VectorPool<Shot> pool(policy);
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 150; ++i) handles.push_back(*pool.emplace(Shot{float(i), 0, 0, 0}));
  for (std::size_t i : {0u, 1u, 2u, 63u, 64u, 100u, 101u, 149u}) ASSERT_TRUE(pool.release(handles[i]));

  std::size_t positions = 0;
  const std::vector<std::uint32_t> live = live_from_words(pool, positions);
  EXPECT_EQ(positions, pool.capacity());
  EXPECT_EQ(live, pool.active_indices());
  EXPECT_EQ(live.size(), 142u);
  EXPECT_EQ(live.front(), 3u);
  EXPECT_EQ(live.back(), 148u);
  EXPECT_EQ(pool.occupancy_page_slots(), 0u) << "contiguous: one buffer, no page edges";
}

TEST(VectorPoolOccupancy, StablePagesReportPageEdgesAndEveryPage) {
  GrowthPolicy policy;
  policy.storage = StorageMode::stable;
  policy.page_slots = 128;
  policy.initial_capacity = 128;
  VectorPool<Shot> pool(policy);
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 300; ++i) handles.push_back(*pool.emplace(Shot{}));  // three pages
  for (std::size_t i = 0; i < 300; i += 3) ASSERT_TRUE(pool.release(handles[i]));

  std::size_t positions = 0;
  const std::vector<std::uint32_t> live = live_from_words(pool, positions);
  EXPECT_EQ(pool.occupancy_page_slots(), 128u);
  EXPECT_EQ(positions, pool.capacity());
  EXPECT_EQ(positions % 128, 0u);
  EXPECT_EQ(live, pool.active_indices());
  EXPECT_EQ(live.size(), 200u);
}

TEST(VectorPoolOccupancy, EmptyAndClearedPoolsReportNoLiveBits) {
  VectorPool<Shot> pool;
  std::size_t positions = 0;
  EXPECT_TRUE(live_from_words(pool, positions).empty());
  EXPECT_EQ(positions, pool.capacity());
  for (int i = 0; i < 40; ++i) pool.emplace(Shot{});
  pool.clear();
  EXPECT_TRUE(live_from_words(pool, positions).empty());
}

}  // namespace
