// VectorPool<T> debug checks: every misuse the pool can detect aborts with a message that
// names it. ENGINE_POOL_DEBUG is forced on here, so these run in release builds too (each
// test executable is its own program, so this does not break the ODR of the others).
#define ENGINE_POOL_DEBUG 1
#define ENGINE_POOL_VALIDATE 1  // and every mutation re-checks all invariants
#include <engine/pool/active_index_list.hpp>
#include <engine/pool/vector_pool.hpp>
#include <engine/pool/detail/pool_access.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "support/pool_test_support.hpp"

// Breaks an invariant on purpose, to prove the self-check still sees it: an occupancy bit
// set on a slot never handed out (no object there, no generation).
namespace engine::detail {
struct PoolTestAccess {
  template <class T>
  static void mark_unused_slot_occupied(VectorPool<T>& pool) {
    pool.visit([](auto& p) {
      SlotTable& table = PoolAccess::table(p);
      ASSERT_LT(table.used(), table.capacity()) << "the test needs a slot never handed out";
      const std::uint32_t last = table.capacity() - 1;
      table.occupied_[last / 64] |= std::uint64_t{1} << (last % 64);
    });
  }
};
}  // namespace engine::detail

namespace pool_test {
namespace {

using engine::ActiveIndexList;
using engine::detail::PoolTestAccess;

static_assert(ENGINE_POOL_DEBUG == 1);

class DebugChecks : public ::testing::TestWithParam<StorageMode> {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_P(DebugChecks, MessageNamesFileAndLine) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  pool.release(h);
  EXPECT_DEATH(pool.release(h), R"(pool\.hpp:[0-9]+: engine pool check failed: )");
}

TEST_P(DebugChecks, DoubleReleaseAborts) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  EXPECT_TRUE(pool.release(h));
  EXPECT_DEATH(pool.release(h), "release\\(\\) of a stale, foreign or already released handle");
}

TEST_P(DebugChecks, StaleHandleAfterReuseAborts) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle old = *pool.emplace(1);
  pool.release(old);
  const PoolHandle reused = *pool.emplace(2);
  ASSERT_EQ(reused.index, old.index);
  EXPECT_DEATH(pool.release(old), "stale, foreign or already released");
  EXPECT_EQ(pool.get(reused)->value(), 2);  // and the parent's object is untouched
}

TEST_P(DebugChecks, ForeignHandleAborts) {
  VectorPool<Tracked> mine(policy(GetParam()));
  VectorPool<Tracked> theirs(policy(GetParam()));
  mine.emplace(1);
  const PoolHandle foreign = *theirs.emplace(2);
  EXPECT_DEATH(mine.release(foreign), "stale, foreign or already released");
}

TEST_P(DebugChecks, ReleaseInsideForEachAborts) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  EXPECT_DEATH(pool.for_each([&](Tracked&) { pool.release(h); }),
               "release\\(\\) inside for_each or erase_if; use release_later\\(\\)");
}

TEST_P(DebugChecks, ReleaseInsideEraseIfPredicateAborts) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  EXPECT_DEATH(pool.erase_if([&](Tracked&) { return pool.release(h); }), "release\\(\\) inside for_each or erase_if");
}

TEST_P(DebugChecks, NestedEraseIfAborts) {
  VectorPool<Tracked> pool(policy(GetParam()));
  pool.emplace(1);
  EXPECT_DEATH(pool.for_each([&](Tracked&) { pool.erase_if([](Tracked&) { return true; }); }),
               "erase_if\\(\\) inside for_each, erase_if");
}

TEST_P(DebugChecks, FlushClearAndPolicyChangesInsideForEachAbort) {
  VectorPool<Tracked> pool(policy(GetParam()));
  pool.emplace(1);
  EXPECT_DEATH(pool.for_each([&](Tracked&) { pool.flush_releases(); }), "flush_releases\\(\\) inside for_each");
  EXPECT_DEATH(pool.for_each([&](Tracked&) { pool.clear(); }), "clear\\(\\) inside for_each");
  EXPECT_DEATH(pool.for_each([&](Tracked&) { pool.shrink_to_fit(); }), "shrink_to_fit\\(\\) inside for_each");
  EXPECT_DEATH(pool.for_each([&](Tracked&) { pool.set_policy(GrowthPolicy{}); }), "set_policy\\(\\) inside a pass");
}

TEST_P(DebugChecks, ReleaseLaterOfAStaleHandleAborts) {
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  pool.release(h);
  EXPECT_DEATH(pool.release_later(h), "release_later\\(\\) of a null, stale, foreign or already released handle");
}

TEST_P(DebugChecks, DereferencingAnEmptyPoolPtrAborts) {
  PoolPtr<Tracked> empty;
  EXPECT_DEATH(static_cast<void>(empty->value()), "dereferenced an empty PoolPtr");
  VectorPool<Tracked> pool(policy(GetParam()));
  PoolPtr<Tracked> p = pool.acquire(1);
  pool.release(p.handle());  // behind the PoolPtr's back
  EXPECT_DEATH(static_cast<void>((*p).value()), "dereferenced an empty PoolPtr");
  static_cast<void>(p.release());  // so its destructor does not double-release
}

TEST_P(DebugChecks, ReleasedSlotsHoldThePoisonPattern) {
  if (engine::detail::asan_poisoning) GTEST_SKIP() << "ASan poisons the slot: reading it is the asan test's job";
  if (GetParam() == StorageMode::heap) GTEST_SKIP() << "heap frees the object's memory: it is the allocator's";
  VectorPool<Tracked> pool(policy(GetParam()));
  const PoolHandle h = *pool.emplace(1);
  const auto* bytes = reinterpret_cast<const unsigned char*>(pool.get(h));
  pool.release(h);
  unsigned char copy[sizeof(Tracked)];
  std::memcpy(copy, bytes, sizeof copy);  // the slot's storage outlives the object
  for (unsigned char b : copy) EXPECT_EQ(b, 0xDD);
}

INSTANTIATE_TEST_SUITE_P(AllModes, DebugChecks, ::testing::ValuesIn(kAllModes), mode_name);

// Objects that own another object of their pool (a PoolPtr member) and
// release it when they die, run by the pool's own multi-object operations.
struct Owner {
  explicit Owner(int value) : tracked(value) {}
  Owner(Owner&&) noexcept = default;
  Owner& operator=(Owner&&) = delete;
  ~Owner() {
    if (on_destroy != nullptr && owned) on_destroy();
  }  // then `owned` releases its object
  Tracked tracked;
  PoolPtr<Owner> owned;
  static inline void (*on_destroy)() = nullptr;  // a hook for the corruption test below
};

class OwnersUnderValidation : public LifetimeChecked<DebugChecks> {
 protected:
  void SetUp() override {
    DebugChecks::SetUp();
    LifetimeChecked::SetUp();
    Owner::on_destroy = nullptr;
  }
  // 10 owners (values 0..9), each owning a leaf (100..109), and 5 bystanders (200..204):
  // the owners take the highest slots, so the leaves they release are not on erase_if's list,
  // and clear() meets most leaves before their owners.
  static std::vector<PoolHandle> populate(VectorPool<Owner>& pool) {
    std::vector<PoolHandle> leaves, owners;
    for (int i = 0; i < 10; ++i) leaves.push_back(*pool.emplace(100 + i));
    for (int i = 0; i < 5; ++i) pool.emplace(200 + i);
    for (int i = 0; i < 10; ++i) {
      owners.push_back(*pool.emplace(i));
      pool.get(owners.back())->owned = PoolPtr<Owner>(pool, leaves[static_cast<std::size_t>(i)]);
    }
    return owners;
  }
  static bool is_owner(const Owner& o) { return o.tracked.value() < 10; }
};

// Trap 1: clear() and ~VectorPool let an owner release what the teardown destroyed first (see
// the PoolPtrTree tests); a handle released before the teardown is still a bug, and still found.
TEST_P(OwnersUnderValidation, ClearAndThePoolDestructorPassTheSelfCheck) {
  {
    VectorPool<Owner> pool(policy(GetParam(), 32));
    populate(pool);
    pool.clear();
    EXPECT_EQ(pool.size(), 0u);
    EXPECT_EQ(Lifetimes::live(), 0);
    populate(pool);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST_P(OwnersUnderValidation, ClearStillCatchesAnOwnerWhoseObjectWasReleasedBehindItsBack) {
  VectorPool<Owner> pool(policy(GetParam(), 32));
  const std::vector<PoolHandle> owners = populate(pool);
  Owner* const owner = pool.get(owners[3]);
  ASSERT_NE(owner, nullptr);
  EXPECT_DEATH(
      {
        pool.release(owner->owned.handle());  // behind the PoolPtr's back
        pool.clear();
      },
      "release\\(\\) of a stale, foreign or already released handle");
}

// Trap 2: the self-check used to run inside the nested release(), while the outer operation
// (erase_if here; flush_releases and an index list's phase two are checked beside it) was half-way
// through its own victims, and abort with "pool invariants broken after release". It now runs
// when the outermost operation completes.
TEST_P(OwnersUnderValidation, EraseIfVictimsThatReleaseOtherObjectsPassTheSelfCheck) {
  VectorPool<Owner> pool(policy(GetParam(), 32));
  populate(pool);
  EXPECT_EQ(pool.erase_if(is_owner), 10u);
  EXPECT_EQ(pool.size(), 5u) << "the owners and the leaves they released";
  EXPECT_EQ(pool.stats().failed_releases, 0u);
  EXPECT_TRUE(pool.validate());
}

TEST_P(OwnersUnderValidation, FlushedVictimsThatReleaseOtherObjectsPassTheSelfCheck) {
  VectorPool<Owner> pool(policy(GetParam(), 32));
  for (const PoolHandle owner : populate(pool)) pool.release_later(owner);
  EXPECT_EQ(pool.flush_releases(), 10u);
  EXPECT_EQ(pool.size(), 5u);
  EXPECT_TRUE(pool.validate());
}

TEST_P(OwnersUnderValidation, AnIndexListsPhaseTwoVictimsThatReleaseOtherObjectsPassTheSelfCheck) {
  VectorPool<Owner> pool(policy(GetParam(), 32));
  populate(pool);
  ActiveIndexList list;
  list.rebuild(pool);
  EXPECT_EQ(list.update(pool, [](Owner& o) { return !is_owner(o); }), 10u);  // releases through release()
  EXPECT_EQ(pool.size(), 5u);
  EXPECT_TRUE(pool.validate());
}

// The self-check still fires: right after the call that found the pool broken, and, for a
// corruption made inside a destructor, when the outermost call (here erase_if) completes.
TEST_P(OwnersUnderValidation, TheSelfCheckStillCatchesABrokenInvariant) {
  VectorPool<Owner> pool(policy(GetParam(), 64));
  pool.emplace(1);
  EXPECT_DEATH(
      {
        PoolTestAccess::mark_unused_slot_occupied(pool);
        pool.emplace(2);
      },
      "pool invariants broken after emplace");
}

TEST_P(OwnersUnderValidation, TheSelfCheckCatchesACorruptionMadeInsideACallbackWhenTheOuterCallEnds) {
  static VectorPool<Owner>* corrupted = nullptr;
  VectorPool<Owner> pool(policy(GetParam(), 64));
  corrupted = &pool;
  populate(pool);
  EXPECT_DEATH(
      {
        Owner::on_destroy = [] { PoolTestAccess::mark_unused_slot_occupied(*corrupted); };
        pool.erase_if(is_owner);
      },
      "pool invariants broken after erase_if");
}

INSTANTIATE_TEST_SUITE_P(AllModes, OwnersUnderValidation, ::testing::ValuesIn(kAllModes), mode_name);

TEST(DebugChecksContiguous, RelocatingEmplaceInsideForEachAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  VectorPool<Tracked> pool(policy(StorageMode::contiguous, 2));
  pool.emplace(1);
  pool.emplace(2);
  EXPECT_DEATH(pool.for_each([&](Tracked&) { pool.emplace(3); }), "growth that moves objects inside a pass");
}

TEST(DebugChecksStable, GrowthInsideForEachIsAllowed) {
  VectorPool<Tracked> pool(policy(StorageMode::stable, 64));
  for (int i = 0; i < 64; ++i) pool.emplace(i);
  int visited = 0;
  pool.for_each([&](Tracked& t) {
    ++visited;
    if (t.value() == 0) {
      ASSERT_TRUE(pool.emplace(100).has_value());  // adds a page, moves nothing
    }
  });
  EXPECT_GE(visited, 64);
  EXPECT_EQ(pool.size(), 65u);
}

}  // namespace
}  // namespace pool_test
