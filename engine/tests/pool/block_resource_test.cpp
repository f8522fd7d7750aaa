// engine::BlockResource: which requests it pools, where its memory comes from and goes back
// to, and pmr containers (list nodes, vector buffers) running on it.
#include <engine/pool/block_resource.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory_resource>
#include <new>
#include <random>
#include <vector>

#include "support/instance_tracker.hpp"

namespace {

using engine::BlockResource;
using engine::BlockResourceConfig;
using pool_test::Lifetimes;
using pool_test::Tracked;

// Upstream that counts what it hands out, remembers the sizes asked for, and can refuse.
class CountingResource : public std::pmr::memory_resource {
 public:
  std::size_t bytes_live = 0;
  std::size_t allocations = 0;
  std::size_t deallocations = 0;
  std::vector<std::size_t> sizes;  // of every allocation, in order
  std::vector<std::size_t> alignments;
  bool refuse = false;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (refuse) throw std::bad_alloc();
    void* p = std::pmr::new_delete_resource()->allocate(bytes, alignment);
    bytes_live += bytes;
    ++allocations;
    sizes.push_back(bytes);
    alignments.push_back(alignment);
    return p;
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
    bytes_live -= bytes;
    ++deallocations;
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

BlockResourceConfig blocks(std::size_t size, std::size_t align, std::size_t per_page) {
  BlockResourceConfig c;
  c.block_size = size;
  c.block_align = align;
  c.blocks_per_page = per_page;
  return c;
}

TEST(BlockResource, PoolsWhatFitsABlockAndPassesTheRestUpstream) {
  CountingResource upstream;
  {
    BlockResource r(blocks(48, 16, 4), &upstream);
    EXPECT_TRUE(r.serves(48, 16));
    EXPECT_TRUE(r.serves(1, 1));
    EXPECT_FALSE(r.serves(49, 16)) << "too big";
    EXPECT_FALSE(r.serves(16, 32)) << "too aligned";

    void* a = r.allocate(48, 16);
    void* small = r.allocate(8, 8);
    void* big = r.allocate(200, 8);
    void* aligned = r.allocate(16, 64);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 16, 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(aligned) % 64, 0u);
    EXPECT_NE(a, small);

    auto s = r.stats();
    EXPECT_EQ(s.pooled_allocations, 2u);
    EXPECT_EQ(s.fallback_allocations, 2u);
    EXPECT_EQ(s.blocks_live, 2u);
    EXPECT_EQ(s.fallback_bytes_live, 216u);
    EXPECT_EQ(s.pages, 1u);
    EXPECT_EQ(s.blocks_free, 2u) << "4 per page, 2 handed out";
    EXPECT_EQ(upstream.allocations, 3u) << "one page and the two pass-throughs";

    r.deallocate(big, 200, 8);
    r.deallocate(aligned, 16, 64);
    r.deallocate(small, 8, 8);
    r.deallocate(a, 48, 16);
    s = r.stats();
    EXPECT_EQ(s.blocks_live, 0u);
    EXPECT_EQ(s.fallback_bytes_live, 0u);
    EXPECT_EQ(s.pooled_deallocations, 2u);
    EXPECT_EQ(s.fallback_deallocations, 2u);
    EXPECT_EQ(upstream.bytes_live, s.bytes_held) << "only the page is still held";
  }
  EXPECT_EQ(upstream.bytes_live, 0u) << "the destructor returns every page";
  EXPECT_EQ(upstream.allocations, upstream.deallocations);
}

TEST(BlockResource, ReusesFreedBlocksMostRecentFirstAndAddsPagesOnlyWhenFull) {
  CountingResource upstream;
  BlockResource r(blocks(32, 8, 8), &upstream);
  std::vector<void*> held;
  for (int i = 0; i < 20; ++i) held.push_back(r.allocate(32, 8));
  EXPECT_EQ(r.stats().pages, 3u) << "20 blocks at 8 per page";
  EXPECT_EQ(r.stats().peak_blocks_live, 20u);
  for (std::size_t i = 0; i < held.size(); ++i) {
    for (std::size_t j = i + 1; j < held.size(); ++j) {
      const auto a = reinterpret_cast<std::uintptr_t>(held[i]);
      const auto b = reinterpret_cast<std::uintptr_t>(held[j]);
      EXPECT_GE(a > b ? a - b : b - a, 32u) << "blocks never overlap";
    }
  }
  r.deallocate(held[5], 32, 8);
  r.deallocate(held[9], 32, 8);
  EXPECT_EQ(r.allocate(32, 8), held[9]);
  EXPECT_EQ(r.allocate(32, 8), held[5]);
  EXPECT_EQ(r.stats().pages, 3u);
  for (void* p : held) r.deallocate(p, 32, 8);
  EXPECT_EQ(r.stats().blocks_live, 0u);
  EXPECT_EQ(r.stats().blocks_free, 24u);
}

TEST(BlockResource, NormalisesTinyBlocksAndOddAlignments) {
  BlockResource r(blocks(1, 3, 16));
  EXPECT_GE(r.block_size(), sizeof(void*)) << "a free block must hold its link";
  EXPECT_EQ(r.block_align() & (r.block_align() - 1), 0u) << "power of two";
  EXPECT_GE(r.block_align(), 3u);
  void* p = r.allocate(1, 1);
  void* q = r.allocate(1, 1);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % r.block_align(), 0u);
  r.deallocate(p, 1, 1);
  r.deallocate(q, 1, 1);
}

TEST(BlockResource, UpstreamFailureLeavesItUnchanged) {
  CountingResource upstream;
  BlockResource r(blocks(16, 8, 2), &upstream);
  void* a = r.allocate(16, 8);
  void* b = r.allocate(16, 8);
  const auto before = r.stats();
  upstream.refuse = true;
  EXPECT_THROW(static_cast<void>(r.allocate(16, 8)), std::bad_alloc) << "page full, upstream says no";
  EXPECT_THROW(static_cast<void>(r.allocate(100, 8)), std::bad_alloc);
  const auto after = r.stats();
  EXPECT_EQ(after.pooled_allocations, before.pooled_allocations);
  EXPECT_EQ(after.fallback_allocations, before.fallback_allocations);
  EXPECT_EQ(after.pages, before.pages);
  EXPECT_EQ(after.blocks_live, 2u);
  upstream.refuse = false;
  r.deallocate(a, 16, 8);
  EXPECT_EQ(r.allocate(16, 8), a) << "still works";
  r.deallocate(a, 16, 8);
  r.deallocate(b, 16, 8);
}

TEST(BlockResource, EqualOnlyToItself) {
  BlockResource a(blocks(32, 8, 8));
  BlockResource b(blocks(32, 8, 8));
  EXPECT_TRUE(a.is_equal(a));
  EXPECT_FALSE(a.is_equal(b)) << "a block must go back to the resource that carved it";
}

// The size a std::pmr::list<T> really asks for per node, measured rather than guessed.
template <class T>
std::size_t list_node_size(std::size_t* alignment) {
  CountingResource probe;
  std::pmr::list<T> one(&probe);
  one.emplace_back(1);
  *alignment = probe.alignments.at(0);
  return probe.sizes.at(0);
}

// Randomised inserts and erases (fixed seed) against a plain std::list reference; at the end
// every block is back and the list's nodes all came from the pool.
TEST(BlockResource, PmrListChurnIsPooledAndReturnsEveryBlock) {
  Lifetimes::reset();
  std::size_t node_align = 0;
  const std::size_t node_size = list_node_size<Tracked>(&node_align);
  EXPECT_GT(node_size, sizeof(Tracked)) << "a node carries two links besides the value";
  Lifetimes::reset();

  CountingResource upstream;
  {
    BlockResource r(blocks(node_size, node_align, 64), &upstream);
    std::pmr::list<Tracked> pooled(&r);
    std::list<int> reference;
    std::mt19937 rng(20240601u);
    for (int step = 0; step < 20000; ++step) {
      const auto roll = rng() % 100;
      const int value = static_cast<int>(rng() % 1000000);
      if (roll < 55 || reference.empty()) {
        const std::size_t at = reference.empty() ? 0 : rng() % (reference.size() + 1);
        auto p = pooled.begin();
        auto q = reference.begin();
        std::advance(p, static_cast<std::ptrdiff_t>(at));
        std::advance(q, static_cast<std::ptrdiff_t>(at));
        pooled.emplace(p, value);
        reference.insert(q, value);
      } else {
        const std::size_t at = rng() % reference.size();
        auto p = pooled.begin();
        auto q = reference.begin();
        std::advance(p, static_cast<std::ptrdiff_t>(at));
        std::advance(q, static_cast<std::ptrdiff_t>(at));
        pooled.erase(p);
        reference.erase(q);
      }
      ASSERT_EQ(r.stats().blocks_live, reference.size());
    }
    ASSERT_EQ(pooled.size(), reference.size());
    auto q = reference.begin();
    for (const Tracked& t : pooled) EXPECT_EQ(t.value(), *q++);
    EXPECT_EQ(Lifetimes::live(), static_cast<long>(reference.size()));

    pooled.clear();
    const auto s = r.stats();
    EXPECT_EQ(s.blocks_live, 0u) << "every node came back";
    EXPECT_GT(s.pooled_allocations, 10000u);
    EXPECT_EQ(s.pooled_allocations, s.pooled_deallocations);
    EXPECT_EQ(s.fallback_allocations, 0u) << "the measured node size fits: nothing fell back";
    EXPECT_EQ(s.pages * 64, s.blocks_free) << "all blocks free again";
    EXPECT_LE(s.pages * 64, s.peak_blocks_live + 64) << "pages only grew as far as the peak needed";
    EXPECT_EQ(Lifetimes::live(), 0);
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }
  EXPECT_EQ(upstream.bytes_live, 0u);
}

TEST(BlockResource, ABlockTheSizeOfTheValueIsTooSmallForAListNode) {
  BlockResource r(blocks(sizeof(Tracked), alignof(Tracked), 64));
  {
    std::pmr::list<Tracked> list(&r);
    for (int i = 0; i < 10; ++i) list.emplace_back(i);
  }
  const auto s = r.stats();
  EXPECT_EQ(s.pooled_allocations, 0u);
  EXPECT_EQ(s.fallback_allocations, 10u) << "stats() make the mistake visible";
  EXPECT_EQ(s.fallback_bytes_live, 0u);
}

TEST(BlockResource, PmrVectorSmallBuffersPooledLargeOnesPassedThrough) {
  CountingResource upstream;
  BlockResource r(blocks(256, alignof(int), 16), &upstream);
  {
    std::pmr::vector<int> v(&r);
    v.reserve(64);  // 256 bytes: exactly one block
    for (int i = 0; i < 64; ++i) v.push_back(i);
    EXPECT_EQ(r.stats().pooled_allocations, 1u);
    EXPECT_EQ(r.stats().fallback_allocations, 0u);
    v.push_back(64);  // outgrows the block: the new buffer comes from upstream
    EXPECT_EQ(r.stats().fallback_allocations, 1u);
    EXPECT_EQ(r.stats().blocks_live, 0u) << "the old buffer went back to the pool";
    for (int i = 0; i <= 64; ++i) EXPECT_EQ(v[static_cast<std::size_t>(i)], i);

    std::vector<std::pmr::vector<int>> many;
    for (int i = 0; i < 40; ++i) {
      many.emplace_back(&r);
      many.back().assign(10, i);  // 40 bytes each: one block each
    }
    EXPECT_EQ(r.stats().blocks_live, 40u);
    EXPECT_EQ(r.stats().pages, 3u);
  }
  const auto s = r.stats();
  EXPECT_EQ(s.blocks_live, 0u);
  EXPECT_EQ(s.fallback_bytes_live, 0u);
  EXPECT_EQ(upstream.bytes_live, s.bytes_held);
}

#if ENGINE_POOL_DEBUG
TEST(BlockResourceDeathTest, ForeignPointerAsserts) {
  EXPECT_DEATH(
      {
        BlockResource a(blocks(32, 8, 8));
        BlockResource b(blocks(32, 8, 8));
        void* p = a.allocate(32, 8);
        void* own = b.allocate(32, 8);
        static_cast<void>(own);
        b.deallocate(p, 32, 8);
      },
      "not a block of this resource");
}
#endif

#if ENGINE_POOL_ASAN
TEST(BlockResourceDeathTest, UseAfterDeallocateIsReported) {
  EXPECT_DEATH(
      {
        BlockResource r(blocks(32, 8, 8));
        auto* p = static_cast<volatile int*>(r.allocate(32, 8));
        void* other = r.allocate(32, 8);  // keeps blocks_live above zero
        static_cast<void>(other);
        r.deallocate(const_cast<int*>(p), 32, 8);
        p[4] = 1;
      },
      "AddressSanitizer");
}

TEST(BlockResourceDeathTest, DoubleDeallocateIsReported) {
  EXPECT_DEATH(
      {
        BlockResource r(blocks(32, 8, 8));
        void* p = r.allocate(32, 8);
        void* other = r.allocate(32, 8);  // keeps blocks_live above zero
        static_cast<void>(other);
        r.deallocate(p, 32, 8);
        r.deallocate(p, 32, 8);
      },
      "AddressSanitizer");
}
#endif

}  // namespace
