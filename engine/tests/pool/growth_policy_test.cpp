// GrowthPolicy: the capacity sequence each policy produces, its caps, and normalisation.
#include <engine/pool/handle.hpp>
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

// Emplaces until the pool refuses (or `limit`), returning the capacity after each growth.
std::vector<std::size_t> capacities_until_full(VectorPool<std::uint64_t>& pool, std::size_t limit) {
  std::vector<std::size_t> seen{pool.capacity()};
  for (std::size_t i = 0; i < limit; ++i) {
    if (!pool.emplace(i)) break;
    if (pool.capacity() != seen.back()) seen.push_back(pool.capacity());
  }
  return seen;
}

TEST(GrowthPolicy, DefaultsAreTheDocumentedOnes) {
  const GrowthPolicy p;
  EXPECT_EQ(p.initial_capacity, 64u);
  EXPECT_EQ(p.growth_step, 0u);
  EXPECT_EQ(p.max_capacity, std::size_t{1} << 28);
  EXPECT_EQ(p.storage, StorageMode::contiguous);
  EXPECT_EQ(p.page_slots, 0u);  // automatic: see the next test
}

// page_slots 0 picks about 1 MiB of objects per page, between 64 and 16384 slots; an explicit
// value is kept (rounded up to a power of two).
TEST(GrowthPolicy, AutomaticPageSizeIsAboutOneMebibyteOfObjects) {
  struct Particle48 {
    float f[12];
  };
  struct Big256 {
    char c[256];
  };
  struct Huge {
    char c[1 << 16];
  };
  GrowthPolicy stable;
  stable.storage = StorageMode::stable;
  EXPECT_EQ(VectorPool<Particle48>(stable).policy().page_slots, 16384u);
  EXPECT_EQ(VectorPool<Big256>(stable).policy().page_slots, 4096u);
  EXPECT_EQ(VectorPool<char>(stable).policy().page_slots, 16384u) << "capped: metadata is per slot";
  EXPECT_EQ(VectorPool<Huge>(stable).policy().page_slots, 64u) << "never below 64 slots";
  stable.page_slots = 1000;
  EXPECT_EQ(VectorPool<Particle48>(stable).policy().page_slots, 1024u);
  VectorPool<Particle48> grown(stable);
  static_cast<void>(grown.emplace());
  EXPECT_EQ(grown.capacity(), 1024u) << "one page of the requested size";
}

TEST(GrowthPolicy, ContiguousDoublingIsCappedByMaxCapacity) {
  VectorPool<std::uint64_t> pool(policy(StorageMode::contiguous, 64, 0, 300));
  EXPECT_EQ(capacities_until_full(pool, 1000), (std::vector<std::size_t>{64, 128, 256, 300}));
  EXPECT_EQ(pool.size(), 300u);
  EXPECT_EQ(pool.stats().failed_emplaces, 1u);
}

TEST(GrowthPolicy, ContiguousStepAddsAFixedNumberOfSlots) {
  VectorPool<std::uint64_t> pool(policy(StorageMode::contiguous, 64, 100, 350));
  EXPECT_EQ(capacities_until_full(pool, 1000), (std::vector<std::size_t>{64, 164, 264, 350}));
}

TEST(GrowthPolicy, ContiguousFromZeroStartsSmall) {
  VectorPool<std::uint64_t> pool(policy(StorageMode::contiguous, 0, 0, 100));
  EXPECT_EQ(capacities_until_full(pool, 1000), (std::vector<std::size_t>{0, 16, 32, 64, 100}));
}

TEST(GrowthPolicy, StableGrowsOnePageAtATimeUpToTheCap) {
  VectorPool<std::uint64_t> pool(policy(StorageMode::stable, 100, 0, 200));
  // 100 rounds up to whole pages; the last page is cut at the cap.
  EXPECT_EQ(capacities_until_full(pool, 1000), (std::vector<std::size_t>{128, 192, 200}));
  EXPECT_EQ(pool.size(), 200u);
}

TEST(GrowthPolicy, StableIgnoresGrowthStep) {
  VectorPool<std::uint64_t> pool(policy(StorageMode::stable, 0, 1000, 1u << 20));
  std::vector<GrowthEvent> events;
  pool.set_growth_listener([&](const GrowthEvent& e) { events.push_back(e); });
  for (std::uint64_t i = 0; i < 64 * 5; ++i) pool.emplace(i);
  ASSERT_EQ(events.size(), 5u);
  for (const GrowthEvent& e : events) EXPECT_EQ(e.new_capacity - e.old_capacity, 64u);
}

TEST(GrowthPolicy, IsNormalised) {
  VectorPool<std::uint64_t> odd_pages(policy(StorageMode::stable, 1, 0, 1000, 100));
  EXPECT_EQ(odd_pages.policy().page_slots, 128u);  // next power of two
  VectorPool<std::uint64_t> tiny_pages(policy(StorageMode::stable, 1, 0, 1000, 3));
  EXPECT_EQ(tiny_pages.policy().page_slots, 64u);  // at least one occupancy word
  VectorPool<std::uint64_t> huge_cap(policy(StorageMode::contiguous, 1, 0, ~std::size_t{0}));
  EXPECT_EQ(huge_cap.policy().max_capacity, 0xFFFFFFFEu);  // indices are 32-bit
  VectorPool<std::uint64_t> big_initial(policy(StorageMode::contiguous, 500, 0, 100));
  EXPECT_EQ(big_initial.policy().initial_capacity, 100u);
  EXPECT_EQ(big_initial.capacity(), 100u);
}

TEST(GrowthPolicy, ChangingOnlyTheGrowthRuleMovesNothing) {
  VectorPool<std::uint64_t> pool(policy(StorageMode::contiguous, 64, 0, 1000));
  const PoolHandle h = *pool.emplace(std::uint64_t{7});
  const std::uint64_t* before = pool.get(h);
  GrowthPolicy next = pool.policy();
  next.growth_step = 10;
  next.max_capacity = 500;
  ASSERT_TRUE(pool.set_policy(next));
  EXPECT_EQ(pool.get(h), before);  // same storage, same address
  EXPECT_EQ(pool.stats().growth_events, 0u);
  EXPECT_EQ(capacities_until_full(pool, 100), (std::vector<std::size_t>{64, 74, 84, 94, 104}));
}

TEST(GrowthPolicy, PageSlotsForIsTheRuleThePoolApplies) {
  // Automatic: about 1 MiB of objects per page, within 64..16384 slots.
  EXPECT_EQ(engine::page_slots_for(0, 48), 16384u);
  EXPECT_EQ(engine::page_slots_for(0, 256), 4096u);
  EXPECT_EQ(engine::page_slots_for(0, 1u << 20), 64u);
  // Requested: clamped to the limits, rounded up to a power of two.
  EXPECT_EQ(engine::page_slots_for(100, 48), 128u);
  EXPECT_EQ(engine::page_slots_for(1, 48), engine::min_page_slots);
  EXPECT_EQ(engine::page_slots_for(~std::size_t{0}, 48), engine::max_page_slots);
  struct Big {
    unsigned char bytes[256];
  };
  VectorPool<Big> automatic(policy(StorageMode::stable, 1, 0, 1u << 20, 0));
  EXPECT_EQ(automatic.policy().page_slots, engine::page_slots_for(0, sizeof(Big)));
  VectorPool<std::uint64_t> asked(policy(StorageMode::stable, 1, 0, 1u << 20, 3000));
  EXPECT_EQ(asked.policy().page_slots, 4096u);
}

TEST(GrowthPolicy, MaxCapacityZeroRefusesEverything) {
  VectorPool<std::uint64_t> pool(policy(StorageMode::contiguous, 10, 0, 0));
  EXPECT_EQ(pool.capacity(), 0u);
  EXPECT_FALSE(pool.emplace(std::uint64_t{1}).has_value());
  EXPECT_FALSE(pool.reserve(1));
}

}  // namespace
}  // namespace pool_test
