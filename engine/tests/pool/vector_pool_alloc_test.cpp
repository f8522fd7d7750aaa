// VectorPool<T>: once a pool has stopped growing, the two-phase release paths
// (release_later + flush_releases, erase_if) never allocate, however many objects one pass
// kills. This file replaces the global operator new and delete family (every form, so a
// sanitizer's own never meets them) to count every heap allocation.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "support/pool_test_support.hpp"

namespace {
std::atomic<std::size_t> g_allocations{0};  // every operator new in the process (threads share the program)

void* counted_allocation(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

void* counted_aligned_allocation(std::size_t size, std::align_val_t alignment) {
  ++g_allocations;
  const auto align = static_cast<std::size_t>(alignment);
  const std::size_t rounded = (size + align - 1) / align * align;
  if (void* p = std::aligned_alloc(align, rounded == 0 ? align : rounded)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_allocation(size); }
void* operator new[](std::size_t size) { return counted_allocation(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new(std::size_t size, std::align_val_t alignment) { return counted_aligned_allocation(size, alignment); }
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return counted_aligned_allocation(size, alignment);
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  ++g_allocations;
  const auto align = static_cast<std::size_t>(alignment);
  return std::aligned_alloc(align, size == 0 ? align : (size + align - 1) / align * align);
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t& tag) noexcept {
  return operator new(size, alignment, tag);
}
// GCC 12 at -O1 (the sanitizer presets) inlines these replacements into gtest's `new Test`
// and then warns that free() meets operator new: true for the standard operators, false for
// these, which allocate with malloc themselves.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace pool_test {
namespace {

constexpr std::size_t kLive = 3000;  // objects kept alive between culls

// 16 slots, so the pool must grow to kLive during the warm-up; pages of 512 slots.
GrowthPolicy warm_up_policy(StorageMode mode) { return policy(mode, 16, 0, kDefaultMaxCapacity, 512); }

class ZeroAllocation : public ::testing::TestWithParam<StorageMode> {
 protected:
  void SetUp() override {
    Lifetimes::reset();
    handles_.reserve(kLive * 4);
  }
  void TearDown() override {
    EXPECT_EQ(Lifetimes::live(), 0);
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }

  // Warm-up in the spirit of a quiet first minute of play: the pool grows to its working
  // size, and each step kills only a few objects, so nothing was ever sized for a big cull.
  void warm_up(VectorPool<Tracked>& pool) {
    refill(pool);
    for (int step = 0; step < 3; ++step) {
      int killed = 0;
      pool.for_each([&](PoolHandle h, Tracked&) {
        if (killed++ < 5) pool.release_later(h);
      });
      ASSERT_EQ(pool.flush_releases(), 5u);
      const std::size_t erased = pool.erase_if([&](const Tracked& t) { return t.value() % 1000 == 500 + step; });
      ASSERT_GT(erased, 0u);
      ASSERT_LE(erased, 3u);
      refill(pool);
    }
    ASSERT_EQ(pool.size(), kLive);
  }

  // Back up to kLive live objects; emplace reuses freed slots, so the pool does not grow.
  void refill(VectorPool<Tracked>& pool) {
    while (pool.size() < kLive) {
      if (!pool.emplace(next_value_++)) return;
    }
  }

  std::vector<PoolHandle> handles_;
  int next_value_ = 0;
};

TEST_P(ZeroAllocation, BigCullsWithReleaseLaterAndEraseIfNeverAllocate) {
  if (GetParam() == StorageMode::heap) GTEST_SKIP() << "heap allocates per object: HeapLayout tests that";
  VectorPool<Tracked> pool(warm_up_policy(GetParam()));
  warm_up(pool);
  const engine::PoolStats warm = pool.stats();
  std::mt19937 rng(7);

  const std::size_t before = g_allocations;
  std::size_t released_later = 0, erased = 0, bad_rounds = 0;
  for (int round = 0; round < 200; ++round) {
    // Kill far more than any warm-up step did: every object in some rounds.
    const std::uint32_t keep_one_in = 1 + rng() % 4;  // 1: kill all
    std::size_t marked = 0;
    pool.for_each([&](PoolHandle h, Tracked& t) {
      if (static_cast<std::uint32_t>(t.value()) % keep_one_in != 0 || keep_one_in == 1) {
        pool.release_later(h);
        ++marked;
      }
    });
    const std::size_t flushed = pool.flush_releases();
    released_later += flushed;
    if (flushed != marked) ++bad_rounds;
    refill(pool);
    const std::size_t gone = pool.erase_if([&](PoolHandle, const Tracked& t) { return t.value() % 3 != 0; });
    erased += gone;
    refill(pool);
  }
  const std::size_t allocations = g_allocations - before;

  EXPECT_EQ(allocations, 0u) << "release_later/flush_releases/erase_if allocated after warm-up";
  EXPECT_EQ(bad_rounds, 0u) << "flush released a different count than was queued";
  EXPECT_GT(released_later, 200 * kLive / 3);
  EXPECT_GT(erased, 200 * kLive / 3);
  const engine::PoolStats after = pool.stats();
  EXPECT_EQ(after.capacity, warm.capacity) << "the culls must not have needed growth";
  EXPECT_EQ(after.bytes_held, warm.bytes_held);
  EXPECT_EQ(after.growth_events, warm.growth_events);
  EXPECT_TRUE(pool.validate());
}

// grow_ahead grows the chunked passes' victim lists with the pool: the first erase_if_chunked
// after it (at the chunk count the last one used) allocates nothing, though the pool is larger.
TEST_P(ZeroAllocation, AChunkedPassAfterGrowAheadAllocatesNothing) {
  if (GetParam() == StorageMode::heap) GTEST_SKIP() << "heap allocates per object: HeapLayout tests that";
  VectorPool<Tracked> pool(warm_up_policy(GetParam()));
  warm_up(pool);
  const auto run = [](std::size_t n, auto&& task) {
    for (std::size_t k = 0; k < n; ++k) task(k);
  };
  constexpr std::size_t kChunks = 3;
  pool.erase_if_chunked(kChunks, run, [](std::size_t, const Tracked&) { return false; });  // lists sized
  const std::size_t capacity = pool.capacity();
  ASSERT_TRUE(pool.grow_ahead(pool.capacity() * 4));
  ASSERT_GE(pool.capacity(), capacity * 4);
  refill(pool);
  while (pool.size() < pool.capacity() && pool.emplace(next_value_++)) {}
  ASSERT_EQ(pool.size(), pool.capacity()) << "a full pool: the most victims one chunk can hold";
  const std::size_t before = g_allocations;
  const std::size_t erased = pool.erase_if_chunked(kChunks, run, [](std::size_t, const Tracked&) { return true; });
  EXPECT_EQ(g_allocations - before, 0u) << "erase_if_chunked allocated after grow_ahead";
  EXPECT_EQ(erased, pool.capacity());
  EXPECT_TRUE(pool.empty());
  EXPECT_TRUE(pool.validate());
}

// Handles queued several times, or queued and then released directly (and their slots
// reused and queued again), could make a naive queue grow without bound between flushes.
TEST_P(ZeroAllocation, RepeatedAndStaleQueueEntriesNeitherOverflowNorAllocate) {
  if (GetParam() == StorageMode::heap) GTEST_SKIP() << "heap allocates per object: HeapLayout tests that";
  VectorPool<Tracked> pool(warm_up_policy(GetParam()));
  warm_up(pool);
  const engine::PoolStats warm = pool.stats();
  handles_.clear();
  pool.for_each([&](PoolHandle h, Tracked&) { handles_.push_back(h); });  // reserved: no allocation
  ASSERT_EQ(handles_.size(), kLive);

  const std::size_t before = g_allocations;
  // 1. Every live object queued three times: 3 x kLive entries > capacity.
  for (int copy = 0; copy < 3; ++copy) {
    for (const PoolHandle h : handles_) pool.release_later(h);
  }
  const std::size_t flushed_repeats = pool.flush_releases();
  refill(pool);
  // 2. Queue, release behind the queue's back, reuse the slot, queue the new object: many
  //    more entries than slots, only the last round's objects still live at the flush.
  handles_.clear();
  pool.for_each([&](PoolHandle h, Tracked&) { handles_.push_back(h); });
  std::size_t stale_rounds = 0;
  for (int round = 0; round < 4; ++round) {
    for (PoolHandle& h : handles_) {
      pool.release_later(h);
      if (round < 3) {
        pool.release(h);
        h = *pool.emplace(next_value_++);  // LIFO: the same slot, a new generation
        ++stale_rounds;
      }
    }
  }
  const std::size_t flushed_stale = pool.flush_releases();
  const std::size_t allocations = g_allocations - before;

  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(flushed_repeats, kLive) << "a handle queued three times dies once";
  EXPECT_EQ(flushed_stale, kLive) << "only the live objects die; stale entries never reach the new occupants";
  EXPECT_EQ(stale_rounds, 3 * kLive);
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.stats().bytes_held, warm.bytes_held);
  EXPECT_EQ(pool.stats().failed_releases, warm.failed_releases + 2 * kLive + 3 * kLive)
      << "every repeated or stale entry is counted once, early or at the flush";
  EXPECT_TRUE(pool.validate());
}

// The queue's memory is part of the pages and so of bytes_held: 8 bytes a slot.
TEST_P(ZeroAllocation, QueueMemoryIsCountedInBytesHeld) {
  VectorPool<Tracked> pool(warm_up_policy(GetParam()));
  warm_up(pool);
  const engine::PoolStats s = pool.stats();
  EXPECT_GE(s.bytes_held, s.capacity * (sizeof(Tracked) + sizeof(PoolHandle) + 2 * sizeof(std::uint32_t)));
}

INSTANTIATE_TEST_SUITE_P(AllModes, ZeroAllocation, ::testing::ValuesIn(kAllModes), mode_name);

// The heap layout is pooling off: exactly one allocation per emplace (the object's own, as
// `new T` makes it) and none per release, once its pages of pointers and handles exist; a
// release frees the object and moves a pointer, never another object.
TEST(HeapLayout, OneAllocationPerEmplaceNonePerReleaseAndNoObjectMoves) {
  Lifetimes::reset();
  {
    VectorPool<Tracked> pool(warm_up_policy(StorageMode::heap));
    ASSERT_TRUE(pool.reserve(1024));
    std::vector<PoolHandle> handles;
    handles.reserve(1000);
    const std::size_t before = g_allocations;
    for (int i = 0; i < 1000; ++i) handles.push_back(*pool.emplace(i));
    EXPECT_EQ(g_allocations - before, 1000u);
    std::vector<const Tracked*> addresses;
    for (const PoolHandle h : handles) addresses.push_back(pool.get(h));
    const std::size_t before_release = g_allocations;
    const long moves_before = Lifetimes::moves;
    for (std::size_t i = 0; i < handles.size(); i += 2) ASSERT_TRUE(pool.release(handles[i]));
    EXPECT_EQ(pool.erase_if([](const Tracked& t) { return t.value() % 3 == 0; }), 333u - 166u);
    EXPECT_EQ(g_allocations, before_release);
    EXPECT_EQ(Lifetimes::moves, moves_before) << "a release moves a pointer, not an object";
    for (std::size_t i = 1; i < handles.size(); i += 2) {
      if (i % 3 == 0) continue;
      EXPECT_EQ(pool.get(handles[i]), addresses[i]) << i;
    }
    EXPECT_TRUE(pool.validate());
    EXPECT_GE(pool.stats().bytes_held, pool.size() * sizeof(Tracked)) << "the objects' own allocations count";
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

// The allocation counter itself works (so a zero above means something).
TEST(AllocationCounter, CountsVectorGrowth) {
  const std::size_t before = g_allocations;
  std::vector<int> v;
  for (int i = 0; i < 100; ++i) v.push_back(i);
  EXPECT_GT(g_allocations - before, 0u);
}

}  // namespace
}  // namespace pool_test
