// engine::MultiPool: several types behind one object, typed handles, per-type memory.
#include <engine/pool/multi_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <variant>
#include <vector>

#include "support/instance_tracker.hpp"

namespace {

using engine::MultiPool;
using engine::PoolHandle;
using engine::TypedHandle;
using pool_test::AlignedTracked;
using pool_test::Lifetimes;
using pool_test::MoveOnlyTracked;
using pool_test::ThrowingTracked;
using pool_test::Tracked;

using Mixed = MultiPool<Tracked, MoveOnlyTracked, AlignedTracked>;

static_assert(!std::is_convertible_v<TypedHandle<Tracked>, TypedHandle<AlignedTracked>>,
              "a handle of one type must not pass for another");
static_assert(std::is_nothrow_move_constructible_v<Mixed>, "moves like its VectorPools");

TEST(MultiPool, EmplaceGetReleaseForEachType) {
  Lifetimes::reset();
  {
    Mixed pool;
    const auto a = pool.emplace<Tracked>(1);
    const auto b = pool.emplace<MoveOnlyTracked>(2);
    const auto c = pool.emplace<AlignedTracked>(3);
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(pool.get(*a)->value(), 1);
    EXPECT_EQ(pool.get(*b)->value(), 2);
    EXPECT_EQ(pool.get(*c)->tracked.value(), 3);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(pool.get(*c)) % 64, 0u);
    EXPECT_EQ(pool.size<Tracked>(), 1u);
    EXPECT_EQ(pool.size<AlignedTracked>(), 1u);
    EXPECT_EQ(pool.size(), 3u);
    EXPECT_EQ(Lifetimes::live(), 3);

    EXPECT_TRUE(pool.release(*b));
    EXPECT_EQ(pool.get(*b), nullptr);
    EXPECT_FALSE(pool.contains(*b));
    EXPECT_TRUE(pool.contains(*a)) << "releasing one type leaves the others alone";
    EXPECT_EQ(pool.size<MoveOnlyTracked>(), 0u);
    EXPECT_EQ(pool.size(), 2u);
    EXPECT_EQ(Lifetimes::live(), 2);
    EXPECT_FALSE(pool.release(TypedHandle<Tracked>{})) << "null handle";
  }
  EXPECT_EQ(Lifetimes::live(), 0) << "the destructor destroys every type's objects";
  EXPECT_EQ(Lifetimes::bad_destructions, 0);
}

TEST(MultiPool, ForEachVisitsOneTypeForEachAllVisitsEveryType) {
  Lifetimes::reset();
  Mixed pool;
  for (int i = 0; i < 10; ++i) pool.emplace<Tracked>(i);
  for (int i = 0; i < 5; ++i) pool.emplace<MoveOnlyTracked>(100 + i);
  for (int i = 0; i < 3; ++i) pool.emplace<AlignedTracked>(1000 + i);

  int tracked_sum = 0;
  pool.for_each<Tracked>([&](Tracked& t) { tracked_sum += t.value(); });
  EXPECT_EQ(tracked_sum, 45);

  int counts[3] = {0, 0, 0};
  long sum = 0;
  pool.for_each_all([&](auto& object) {
    using U = std::decay_t<decltype(object)>;
    if constexpr (std::is_same_v<U, Tracked>) {
      ++counts[0];
      sum += object.value();
    } else if constexpr (std::is_same_v<U, MoveOnlyTracked>) {
      ++counts[1];
      sum += object.value();
    } else {
      static_assert(std::is_same_v<U, AlignedTracked>);
      ++counts[2];
      sum += object.tracked.value();
    }
  });
  EXPECT_EQ(counts[0], 10);
  EXPECT_EQ(counts[1], 5);
  EXPECT_EQ(counts[2], 3);
  EXPECT_EQ(sum, 45 + 510 + 3003);

  std::size_t matched = 0;
  pool.for_each_all([&](auto handle, auto& object) {  // handle form: TypedHandle<T>
    if (pool.get(handle) == &object) ++matched;
  });
  EXPECT_EQ(matched, 18u);
}

// A type's objects cost that type's slot, not the biggest type's: the per-type pool holds
// exactly what a VectorPool<Small> alone would, while a pool of variants pays Big per slot.
TEST(MultiPool, EachObjectCostsItsOwnTypeNotTheLargest) {
  struct Small {
    explicit Small(int v) : value(v) {}
    int value;
  };
  struct Big {
    explicit Big(int v) : value(v) {}
    int value;
    unsigned char payload[508] = {};
  };
  MultiPool<Small, Big> multi;
  engine::VectorPool<Small> small_alone;
  engine::VectorPool<std::variant<Small, Big>> variants;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(multi.emplace<Small>(i));
    ASSERT_TRUE(small_alone.emplace(i));
    ASSERT_TRUE(variants.emplace(std::in_place_type<Small>, i));
  }
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(multi.emplace<Big>(i));
    ASSERT_TRUE(variants.emplace(std::in_place_type<Big>, i));
  }
  const engine::PoolStats smalls = multi.stats<Small>();
  const engine::PoolStats alone = small_alone.stats();
  const engine::PoolStats mixed = variants.stats();
  ASSERT_EQ(smalls.capacity, alone.capacity);
  EXPECT_EQ(smalls.bytes_held, alone.bytes_held) << "a Small costs exactly a VectorPool<Small> slot";

  const double small_slot = static_cast<double>(smalls.bytes_held) / static_cast<double>(smalls.capacity);
  const double variant_slot = static_cast<double>(mixed.bytes_held) / static_cast<double>(mixed.capacity);
  EXPECT_LT(small_slot, static_cast<double>(sizeof(Big)) / 8) << "far below a Big";
  EXPECT_GE(variant_slot, static_cast<double>(sizeof(Big))) << "every variant slot is Big-sized";
  EXPECT_LT(multi.stats().bytes_held * 4, mixed.bytes_held)
      << "1000 small + 10 big: the multi pool holds a fraction of the variant pool";
}

// Randomised emplace/release over all three types (fixed seed) against reference maps.
TEST(MultiPool, RandomChurnAcrossTypesMatchesAReference) {
  Lifetimes::reset();
  Mixed pool;
  std::map<std::uint64_t, std::pair<TypedHandle<Tracked>, int>> ref_a;
  std::map<std::uint64_t, std::pair<TypedHandle<MoveOnlyTracked>, int>> ref_b;
  std::map<std::uint64_t, std::pair<TypedHandle<AlignedTracked>, int>> ref_c;
  std::mt19937 rng(4242u);
  std::uint64_t key = 0;
  auto release_random = [&](auto& ref) {
    if (ref.empty()) return;
    auto it = ref.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(rng() % ref.size()));
    ASSERT_TRUE(pool.release(it->second.first));
    EXPECT_EQ(pool.get(it->second.first), nullptr);
    ref.erase(it);
  };
  for (int step = 0; step < 20000; ++step) {
    const auto roll = rng() % 6;
    const int value = static_cast<int>(rng() % 100000);
    switch (roll) {
      case 0:
        ref_a[key++] = {*pool.emplace<Tracked>(value), value};
        break;
      case 1:
        ref_b[key++] = {*pool.emplace<MoveOnlyTracked>(value), value};
        break;
      case 2:
        ref_c[key++] = {*pool.emplace<AlignedTracked>(value), value};
        break;
      case 3:
        release_random(ref_a);
        break;
      case 4:
        release_random(ref_b);
        break;
      default:
        release_random(ref_c);
        break;
    }
  }
  EXPECT_EQ(pool.size<Tracked>(), ref_a.size());
  EXPECT_EQ(pool.size<MoveOnlyTracked>(), ref_b.size());
  EXPECT_EQ(pool.size<AlignedTracked>(), ref_c.size());
  for (const auto& [k, e] : ref_a) EXPECT_EQ(pool.get(e.first)->value(), e.second);
  for (const auto& [k, e] : ref_b) EXPECT_EQ(pool.get(e.first)->value(), e.second);
  for (const auto& [k, e] : ref_c) EXPECT_EQ(pool.get(e.first)->tracked.value(), e.second);
  // MoveOnlyTracked and AlignedTracked each hold one Tracked inside.
  EXPECT_EQ(Lifetimes::live(), static_cast<long>(ref_a.size() + ref_b.size() + ref_c.size()));

  const engine::PoolStats total = pool.stats();
  EXPECT_EQ(total.live, pool.size());
  EXPECT_EQ(total.emplaces - total.releases, pool.size());

  pool.clear();
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_EQ(Lifetimes::bad_destructions, 0);
  for (const auto& [k, e] : ref_a) EXPECT_EQ(pool.get(e.first), nullptr);
}

TEST(MultiPool, ThrowingConstructorLeavesEveryPoolAsItWas) {
  Lifetimes::reset();
  MultiPool<Tracked, ThrowingTracked> pool;
  pool.emplace<Tracked>(1);
  pool.emplace<ThrowingTracked>(2);
  const auto before = pool.stats();
  Lifetimes::throw_countdown = 1;
  EXPECT_THROW(pool.emplace<ThrowingTracked>(3), std::runtime_error);
  const auto after = pool.stats();
  EXPECT_EQ(after.live, before.live);
  EXPECT_EQ(after.emplaces, before.emplaces);
  EXPECT_EQ(Lifetimes::live(), 2);
}

TEST(MultiPool, PerTypePoliciesThroughPool) {
  engine::GrowthPolicy capped;
  capped.initial_capacity = 4;
  capped.max_capacity = 4;
  MultiPool<Tracked, AlignedTracked> pool(capped);                       // both start capped at 4
  ASSERT_TRUE(pool.pool<Tracked>().set_policy(engine::GrowthPolicy{}));  // Tracked's cap lifted
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(pool.emplace<AlignedTracked>(i));
  EXPECT_FALSE(pool.emplace<AlignedTracked>(5)) << "AlignedTracked's pool is capped at 4";
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(pool.emplace<Tracked>(i)) << "Tracked's is not";
  EXPECT_EQ(pool.stats<AlignedTracked>().failed_emplaces, 1u);
}

#if ENGINE_POOL_DEBUG
TEST(MultiPoolDeathTest, DoubleReleaseAssertsLikeVectorPool) {
  using Pair = MultiPool<Tracked, AlignedTracked>;  // no bare comma inside the macro
  EXPECT_DEATH(
      {
        Pair pool;
        const auto h = pool.emplace<Tracked>(1);
        pool.release(*h);
        pool.release(*h);
      },
      "release");
}
#endif

}  // namespace
