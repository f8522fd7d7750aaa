// VectorPool<T> under AddressSanitizer: free slots are poisoned, so touching a released
// object through a kept pointer is reported, while everything the pool itself does is not.
// Without ASan (ENGINE_POOL_ASAN 0) the death tests skip: the asan build is where they count.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

// 16 bytes: a whole number of ASan granules, so poisoning is exact to the byte.
struct Particle {
  std::uint64_t position;
  std::uint64_t velocity;
};

// One page's worth of slots to start with, in either mode.
GrowthPolicy one_page_policy(StorageMode mode) { return policy(mode, 64); }

class AsanPoisoning : public ::testing::TestWithParam<StorageMode> {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

#define SKIP_WITHOUT_ASAN() \
  if (!engine::detail::asan_poisoning) GTEST_SKIP() << "built without AddressSanitizer: nothing reports the access"

std::uint64_t read(const Particle* p) { return static_cast<const volatile std::uint64_t&>(p->velocity); }

// What ASan says about a released object: the pooled layouts poison the slot they keep; the heap
// layout deletes the object, so its memory sits in ASan's quarantine as freed heap.
const char* released_report(StorageMode mode) {
  return mode == StorageMode::heap ? "heap-use-after-free" : "use-after-poison";
}

TEST_P(AsanPoisoning, ReadingAReleasedObjectIsReported) {
  VectorPool<Particle> pool(one_page_policy(GetParam()));
  const PoolHandle h = *pool.emplace(Particle{1, 2});
  const Particle* kept = pool.get(h);
  EXPECT_EQ(read(kept), 2u);  // alive: fine
  pool.release(h);
  SKIP_WITHOUT_ASAN();
  EXPECT_DEATH(static_cast<void>(read(kept)), released_report(GetParam()));
}

TEST_P(AsanPoisoning, NeverUsedSlotsArePoisoned) {
  if (GetParam() == StorageMode::heap) GTEST_SKIP() << "heap: one allocation per object, no unused slots to poison";
  VectorPool<Particle> pool(one_page_policy(GetParam()));
  const Particle* first = pool.get(*pool.emplace(Particle{1, 2}));
  SKIP_WITHOUT_ASAN();
  EXPECT_DEATH(static_cast<void>(read(first + 5)), "use-after-poison");
}

TEST_P(AsanPoisoning, ReusedSlotIsUnpoisonedForItsNewObject) {
  VectorPool<Particle> pool(one_page_policy(GetParam()));
  const PoolHandle h = *pool.emplace(Particle{1, 2});
  pool.release(h);
  const PoolHandle again = *pool.emplace(Particle{3, 4});
  EXPECT_EQ(read(pool.get(again)), 4u);
}

TEST_P(AsanPoisoning, ChurnMigrationAndClearNeverTripTheSanitizer) {
  VectorPool<Particle> pool(one_page_policy(GetParam()));
  std::vector<PoolHandle> handles;
  for (std::uint64_t round = 0; round < 6; ++round) {
    for (std::uint64_t i = 0; i < 500; ++i) handles.push_back(*pool.emplace(Particle{i, round}));
    for (std::size_t i = 0; i < handles.size(); i += 3) pool.release(handles[i]);
    handles.clear();
    GrowthPolicy next = pool.policy();
    next.storage = next.storage == StorageMode::stable ? StorageMode::contiguous : StorageMode::stable;
    ASSERT_TRUE(pool.set_policy(next));
    std::uint64_t sum = 0;
    for (const Particle& p : pool) sum += p.velocity;
    EXPECT_GE(sum, 0u);
    pool.shrink_to_fit();
    if (round == 3) pool.clear();
  }
  EXPECT_TRUE(pool.validate());
}

INSTANTIATE_TEST_SUITE_P(AllModes, AsanPoisoning, ::testing::ValuesIn(kAllModes), mode_name);

TEST(AsanPoisoningContiguous, KeptPointerAcrossRelocationIsReported) {
  SKIP_WITHOUT_ASAN();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  VectorPool<Particle> pool(one_page_policy(StorageMode::contiguous));
  const Particle* kept = pool.get(*pool.emplace(Particle{1, 2}));
  for (std::uint64_t i = 0; i < 100; ++i) pool.emplace(Particle{i, i});  // relocates: old buffer freed
  EXPECT_DEATH(static_cast<void>(read(kept)), "heap-use-after-free");
}

// Objects smaller than ASan's 8-byte granule, or not a multiple of it. Slots
// are padded to whole granules under ASan, so a released slot is poisoned even beside a live one.
struct Odd12 {
  std::uint32_t a, b, c;
};

template <class T>
void expect_released_neighbour_reported(StorageMode mode) {
  VectorPool<T> pool(one_page_policy(mode));
  const PoolHandle released = *pool.emplace(T{});
  const PoolHandle live = *pool.emplace(T{});
  const PoolHandle after = *pool.emplace(T{});
  ASSERT_EQ(live.index, released.index + 1);
  // Packed: each release moves the last object into the hole, so the slots left free (and
  // poisoned) are the last ones; the first would hold `live` again.
  const PoolHandle watched = is_packed_storage(mode) ? after : released;
  const volatile unsigned char* kept = reinterpret_cast<const unsigned char*>(pool.get(watched));
  pool.release(released);
  pool.release(after);
  EXPECT_EQ(*reinterpret_cast<const volatile unsigned char*>(pool.get(live)), 0u);  // the live one reads fine
  SKIP_WITHOUT_ASAN();
  EXPECT_DEATH(static_cast<void>(kept[0]), released_report(mode));
  EXPECT_DEATH(static_cast<void>(kept[sizeof(T) - 1]), released_report(mode));
}

TEST_P(AsanPoisoning, ReleasedFourByteSlotBesideALiveOneIsReported) {
  expect_released_neighbour_reported<std::uint32_t>(GetParam());
}
TEST_P(AsanPoisoning, ReleasedOneByteSlotBesideALiveOneIsReported) {
  expect_released_neighbour_reported<std::uint8_t>(GetParam());
}
TEST_P(AsanPoisoning, ReleasedTwelveByteSlotBesideALiveOneIsReported) {
  expect_released_neighbour_reported<Odd12>(GetParam());
}

}  // namespace
}  // namespace pool_test
