// engine::Pool<T, Storage>, the core, typed over the five storages: the contract of pool.hpp
// (construction in place, destruction once, checked handles, the strong guarantee, the two-phase
// update, walks) holds for each, with nothing but the storage type changed.
#include <engine/pool/pool.hpp>
#include <engine/pool/storage/contiguous.hpp>
#include <engine/pool/storage/heap_nodes.hpp>
#include <engine/pool/storage/packed.hpp>
#include <engine/pool/storage/stable_pages.hpp>

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

template <class S>
class CorePool : public ::testing::Test {
 protected:
  void SetUp() override { Lifetimes::reset(); }
  void TearDown() override {
    EXPECT_EQ(Lifetimes::live(), 0) << "every object destroyed once";
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }
  using Pool = engine::Pool<Tracked, S>;
  static GrowthPolicy small() {
    GrowthPolicy p;
    p.initial_capacity = 4;
    p.page_slots = 64;
    return p;
  }
};

using Storages =
    ::testing::Types<engine::Contiguous, engine::StablePages, engine::Packed, engine::PackedPages, engine::HeapNodes>;
class StorageName {
 public:
  template <class S>
  static std::string GetName(int) {
    return engine::storage_mode_name(S::mode);
  }
};
TYPED_TEST_SUITE(CorePool, Storages, StorageName);

TYPED_TEST(CorePool, EmplaceGetReleaseCountEveryLifetime) {
  {
    typename TestFixture::Pool pool(TestFixture::small());
    std::vector<PoolHandle> handles;
    for (int i = 0; i < 300; ++i) handles.push_back(*pool.emplace(i));  // grows past 4 and past a page
    EXPECT_EQ(Lifetimes::live(), 300);
    EXPECT_EQ(Lifetimes::constructed - Lifetimes::moves - Lifetimes::copies, 300) << "built once, in place";
    EXPECT_EQ(pool.size(), 300u);
    for (int i = 0; i < 300; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->value(), i);
    EXPECT_TRUE(pool.release(handles[7]));
#if !ENGINE_POOL_DEBUG  // debug builds stop at misuse instead (vector_pool_debug_test)
    EXPECT_FALSE(pool.release(handles[7])) << "a double release is refused";
    EXPECT_EQ(pool.stats().failed_releases, 1u);
#endif
    EXPECT_EQ(pool.get(handles[7]), nullptr);
    EXPECT_FALSE(pool.contains(handles[7]));
    const PoolHandle reused = *pool.emplace(1000);
    EXPECT_EQ(reused.index, handles[7].index) << "the freed slot is handed out next";
    EXPECT_EQ(pool.get(handles[7]), nullptr) << "the stale handle does not reach the new object";
    EXPECT_EQ(pool.stats().stale_gets, 2u);
    EXPECT_TRUE(pool.validate());
  }
  EXPECT_EQ(Lifetimes::live(), 0) << "the destructor destroyed the rest";
}

// Its value constructor may throw (Lifetimes::throw_countdown); its move does not.
struct Fragile {
  explicit Fragile(int v) : inner((Lifetimes::maybe_throw(), v)) {}
  Tracked inner;
};

TYPED_TEST(CorePool, AThrowingConstructorLeavesThePoolAsItWas) {
  engine::Pool<Fragile, TypeParam> pool(TestFixture::small());
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 4; ++i) handles.push_back(*pool.emplace(i));  // full: the next emplace grows
  const engine::PoolStats before = pool.stats();
  Lifetimes::throw_countdown = 1;
  EXPECT_THROW(pool.emplace(99), std::runtime_error);
  const engine::PoolStats after = pool.stats();
  EXPECT_EQ(after.live, 4u);
  EXPECT_EQ(after.capacity, before.capacity) << "the growth for a constructor that threw is undone";
  EXPECT_EQ(after.bytes_held, before.bytes_held);
  EXPECT_EQ(Lifetimes::live(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(pool.get(handles[static_cast<std::size_t>(i)])->inner.value(), i);
  EXPECT_TRUE(pool.validate());
  EXPECT_EQ(pool.emplace(5)->index, 4u) << "the slot the failure claimed is handed out again";
}

TYPED_TEST(CorePool, TwoPhaseUpdateReleasesWhatTheWalkMarked) {
  typename TestFixture::Pool pool(TestFixture::small());
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 200; ++i) handles.push_back(*pool.emplace(i));
  int visited = 0;
  pool.for_each([&](PoolHandle h, Tracked& t) {  // phase one: update and mark
    ++visited;
    EXPECT_EQ(pool.get(h), &t);
    if (t.value() % 3 == 0) pool.release_later(h);
#if !ENGINE_POOL_DEBUG
    EXPECT_FALSE(pool.release(h)) << "release() mid-pass is refused";
#endif
  });
  EXPECT_EQ(visited, 200);
  EXPECT_EQ(pool.size(), 200u) << "nothing dies mid-pass";
  EXPECT_EQ(pool.flush_releases(), 67u);  // phase two: release
  EXPECT_EQ(pool.size(), 133u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(pool.contains(handles[static_cast<std::size_t>(i)]), i % 3 != 0) << i;
  EXPECT_EQ(pool.erase_if([](const Tracked& t) { return t.value() % 2 == 0; }), 66u);
  int sum = 0;
  for (const Tracked& t : pool) sum += t.value() % 2 == 1 && t.value() % 3 != 0;
  EXPECT_EQ(sum, 67);
  EXPECT_EQ(pool.size(), 67u);
  pool.clear();
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_FALSE(pool.contains(handles[1]));
  EXPECT_TRUE(pool.validate());
}

// Random emplaces and releases against a std::map as the reference model.
TYPED_TEST(CorePool, ChurnMatchesAReferenceModel) {
  typename TestFixture::Pool pool(TestFixture::small());
  std::map<PoolHandle, int, HandleLess> model;
  std::vector<PoolHandle> ever;
  std::mt19937 rng(7);
  for (int step = 0; step < 5000; ++step) {
    if (model.empty() || rng() % 3 != 0) {
      const PoolHandle h = *pool.emplace(step);
      model[h] = step;
      ever.push_back(h);
    } else {
      auto it = model.begin();
      std::advance(it, static_cast<long>(rng() % model.size()));
      EXPECT_TRUE(pool.release(it->first));
      model.erase(it);
    }
  }
  ASSERT_EQ(pool.size(), model.size());
  for (const PoolHandle h : ever) {
    const auto it = model.find(h);
    const Tracked* t = pool.get(h);
    ASSERT_EQ(t != nullptr, it != model.end());
    if (t != nullptr) {
      EXPECT_EQ(t->value(), it->second);
    }
  }
  std::size_t walked = 0;
  pool.for_each([&](const Tracked&) { ++walked; });
  EXPECT_EQ(walked, model.size());
  EXPECT_TRUE(pool.validate());
}

TYPED_TEST(CorePool, ReserveAndMaxCapacityAnswerWithoutThrowing) {
  GrowthPolicy p = TestFixture::small();
  p.max_capacity = 100;
  typename TestFixture::Pool pool(p);
  EXPECT_TRUE(pool.reserve(100));
  EXPECT_GE(pool.capacity(), 100u);
  EXPECT_FALSE(pool.reserve(101)) << "past max_capacity";
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(pool.emplace(i).has_value());
  EXPECT_FALSE(pool.emplace(100).has_value());
  EXPECT_EQ(pool.stats().failed_emplaces, 1u);
  EXPECT_EQ(Lifetimes::live(), 100);
}

}  // namespace
}  // namespace pool_test
