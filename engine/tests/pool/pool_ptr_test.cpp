// PoolPtr<T>: RAII ownership of one pooled object, valid across growth and migration.
#include <engine/pool/vector_pool.hpp>  // brings PoolPtr (pool_ptr.hpp does not include the pool back)

#include <gtest/gtest.h>

#include <type_traits>
#include <utility>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

static_assert(!std::is_copy_constructible_v<PoolPtr<Tracked>>);
static_assert(std::is_nothrow_move_constructible_v<PoolPtr<Tracked>>);

class PoolPtrTest : public LifetimeChecked<> {};

TEST_F(PoolPtrTest, ReleasesOnDestruction) {
  VectorPool<Tracked> pool;
  PoolHandle h;
  {
    PoolPtr<Tracked> p = pool.acquire(5);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->value(), 5);
    EXPECT_EQ((*p).value(), 5);
    h = p.handle();
    EXPECT_EQ(p.pool(), &pool);
    EXPECT_EQ(pool.size(), 1u);
  }
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_FALSE(pool.contains(h));
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST_F(PoolPtrTest, MoveTransfersOwnership) {
  VectorPool<Tracked> pool;
  PoolPtr<Tracked> a = pool.acquire(1);
  PoolPtr<Tracked> b = std::move(a);
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_EQ(a.get(), nullptr);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->value(), 1);
  PoolPtr<Tracked> c = pool.acquire(2);
  c = std::move(b);  // c's old object (2) dies, c now owns 1
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_EQ(c->value(), 1);
}

TEST_F(PoolPtrTest, ResetDestroysAndReleaseDetaches) {
  VectorPool<Tracked> pool;
  PoolPtr<Tracked> p = pool.acquire(1);
  p.reset();
  EXPECT_FALSE(p);
  EXPECT_EQ(pool.size(), 0u);
  PoolPtr<Tracked> q = pool.acquire(2);
  const PoolHandle h = q.release();
  EXPECT_FALSE(q);
  EXPECT_EQ(pool.get(h)->value(), 2);  // still alive: release() only gave up ownership
  PoolPtr<Tracked> adopted(pool, h);
  EXPECT_EQ(adopted->value(), 2);
}

TEST_F(PoolPtrTest, StaysValidAcrossGrowthAndStorageSwitch) {
  GrowthPolicy p;
  p.initial_capacity = 2;
  p.page_slots = 64;
  VectorPool<Tracked> pool(p);
  PoolPtr<Tracked> first = pool.acquire(42);
  std::vector<PoolPtr<Tracked>> others;
  for (int i = 0; i < 500; ++i) others.push_back(pool.acquire(i));  // several relocations
  EXPECT_GT(pool.stats().growth_events, 3u);
  EXPECT_EQ(first->value(), 42);
  p.storage = StorageMode::stable;
  ASSERT_TRUE(pool.set_policy(p));
  EXPECT_EQ(first->value(), 42);
  for (int i = 0; i < 500; ++i) EXPECT_EQ(others[static_cast<std::size_t>(i)]->value(), i);
  others.clear();
  EXPECT_EQ(pool.size(), 1u);
}

TEST_F(PoolPtrTest, EmptyWhenThePoolIsAtItsCap) {
  GrowthPolicy p;
  p.initial_capacity = 2;
  p.max_capacity = 2;
  VectorPool<Tracked> pool(p);
  PoolPtr<Tracked> a = pool.acquire(1);
  PoolPtr<Tracked> b = pool.acquire(2);
  PoolPtr<Tracked> c = pool.acquire(3);
  EXPECT_TRUE(a);
  EXPECT_TRUE(b);
  EXPECT_FALSE(c);
  EXPECT_EQ(c.get(), nullptr);
  EXPECT_EQ(pool.size(), 2u);
  EXPECT_EQ(pool.stats().failed_emplaces, 1u);
  EXPECT_EQ(Lifetimes::live(), 2);  // the refused object was never constructed
}

// A PoolPtr may live inside an object of its own pool (a tree). In a packed pool, the release it
// makes moves the last object into the hole, and that can be the PoolPtr's own holder. reset()
// and move assignment therefore empty (or refill) the PoolPtr before they release, as
// std::unique_ptr::reset does: the holder's moved copy owns the right object, and nothing is
// written to the place it moved from.
struct Holder {
  explicit Holder(int value) : tracked(value) {}
  Tracked tracked;
  PoolPtr<Holder> link;
};

TEST_F(PoolPtrTest, ResetAndAssignmentWhoseReleaseMovesTheirOwnHolder) {
  {
    VectorPool<Holder> pool(policy(StorageMode::packed, 8));
    const PoolHandle target = *pool.emplace(1);  // dense position 0
    const PoolHandle holder = *pool.emplace(2);  // 1, the last: it fills target's hole
    pool.get(holder)->link = PoolPtr<Holder>(pool, target);
    pool.get(holder)->link.reset();
    EXPECT_FALSE(pool.contains(target));
    ASSERT_EQ(pool.storage_position(holder.index), 0u) << "the test needs the holder to have moved";
    EXPECT_FALSE(pool.get(holder)->link) << "the moved holder must not own the released object";
  }
  {
    VectorPool<Holder> pool(policy(StorageMode::packed, 8));
    const PoolHandle target = *pool.emplace(1);       // 0
    const PoolHandle replacement = *pool.emplace(2);  // 1
    const PoolHandle holder = *pool.emplace(3);       // 2, the last
    pool.get(holder)->link = PoolPtr<Holder>(pool, target);
    pool.get(holder)->link = PoolPtr<Holder>(pool, replacement);  // releases target: the holder moves
    EXPECT_FALSE(pool.contains(target));
    ASSERT_EQ(pool.storage_position(holder.index), 0u) << "the test needs the holder to have moved";
    EXPECT_EQ(pool.get(holder)->link.handle(), replacement) << "the moved holder owns what was assigned";
    EXPECT_EQ(pool.stats().failed_releases, 0u);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

}  // namespace
}  // namespace pool_test
