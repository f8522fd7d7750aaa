// What StorageMode::packed_pages adds to the pool contract: packed's dense objects,
// in fixed pages, so growth adds a page and moves nothing; handles through a paged sparse
// index; shrink_to_fit() giving whole pages back; and live migration between every pair of
// layouts with every handle kept. The contract every layout shares is tested over kAllModes
// in the other suites (packed_pages among them).
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

constexpr std::size_t kPage = 64;  // the smallest page: many page edges in a small test

class PackedPages : public LifetimeChecked<> {
 protected:
  VectorPool<Tracked> pool{policy(StorageMode::packed_pages, 0, 0, kDefaultMaxCapacity, kPage)};
};

TEST_F(PackedPages, GrowthAddsOnePageAndMovesNoObject) {
  std::vector<GrowthEvent> events;
  pool.set_growth_listener([&](const GrowthEvent& e) { events.push_back(e); });
  std::vector<PoolHandle> handles;
  std::vector<const Tracked*> addresses;
  for (int i = 0; i < static_cast<int>(5 * kPage); ++i) {
    handles.push_back(*pool.emplace(i));
    addresses.push_back(pool.get(handles.back()));
  }
  for (std::size_t i = 0; i < handles.size(); ++i) {
    EXPECT_EQ(pool.get(handles[i]), addresses[i]) << "object " << i << " moved";
  }
  EXPECT_EQ(Lifetimes::moves, 0);
  ASSERT_EQ(events.size(), 5u);
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].old_capacity, i * kPage);
    EXPECT_EQ(events[i].new_capacity, (i + 1) * kPage);
    EXPECT_FALSE(events[i].relocated);
    EXPECT_EQ(events[i].relocated_objects, 0u);
    // One page of objects, their dense and sparse entries, and the page's metadata.
    EXPECT_GE(events[i].bytes_allocated, kPage * (sizeof(Tracked) + 3 * sizeof(std::uint32_t)));
  }
  EXPECT_EQ(pool.occupancy_page_slots(), kPage);
  EXPECT_TRUE(pool.validate());
}

TEST_F(PackedPages, ObjectsStayDenseAcrossPagesAndHandlesFollowThemThroughRandomChurn) {
  std::map<PoolHandle, int, HandleLess> model;
  std::mt19937 rng(2727);
  int next = 0;
  for (int step = 0; step < 20000; ++step) {
    if (model.empty() || rng() % 100 < 55) {
      const PoolHandle h = *pool.emplace(next);
      model[h] = next++;
    } else {
      auto it = model.begin();
      std::advance(it, static_cast<long>(rng() % model.size()));
      ASSERT_TRUE(pool.release(it->first));
      model.erase(it);
    }
    if (step % 997 == 0) {
      ASSERT_TRUE(pool.validate());
      for (const auto& [h, v] : model) ASSERT_EQ(pool.get(h)->value(), v);
    }
  }
  ASSERT_GT(model.size(), 3 * kPage) << "the churn should span several pages";
  // Dense: the live objects are positions [0, size()), kPage to a page, each page in address order.
  std::size_t n = 0;
  const Tracked* page_start = nullptr;
  for (const Tracked& t : pool) {
    if (n % kPage == 0) page_start = &t;
    EXPECT_EQ(&t, page_start + n % kPage);
    ++n;
  }
  EXPECT_EQ(n, model.size());
  std::size_t live_bits = 0;
  pool.for_each_occupancy_word([&](std::size_t first, std::uint64_t live, unsigned) {
    for (unsigned b = 0; b < 64; ++b) {
      const bool expect_live = first + b < model.size();
      if (((live >> b) & 1u) != 0) ++live_bits;
      if (((live >> b) & 1u) != (expect_live ? 1u : 0u)) ADD_FAILURE() << "position " << first + b;
    }
  });
  EXPECT_EQ(live_bits, model.size());
  for (const auto& [h, v] : model) EXPECT_LT(pool.storage_position(h.index), model.size());
  EXPECT_EQ(Lifetimes::live(), static_cast<long>(model.size()));
}

TEST_F(PackedPages, ShrinkToFitGivesBackTheEmptyTrailingPages) {
  std::vector<PoolHandle> handles;
  for (int i = 0; i < static_cast<int>(6 * kPage); ++i) handles.push_back(*pool.emplace(i));
  const std::size_t bytes_full = pool.stats().bytes_held;
  // Free the last four pages' slots: their objects die, the survivors stay where the dense
  // array keeps them (positions [0, 2 * kPage)).
  for (std::size_t i = 2 * kPage; i < handles.size(); ++i) ASSERT_TRUE(pool.release(handles[i]));
  pool.shrink_to_fit();
  EXPECT_EQ(pool.capacity(), 2 * kPage);
  EXPECT_LT(pool.stats().bytes_held, bytes_full / 2);
  EXPECT_TRUE(pool.validate());
  for (std::size_t i = 0; i < 2 * kPage; ++i) EXPECT_EQ(pool.get(handles[i])->value(), static_cast<int>(i));
  for (std::size_t i = 2 * kPage; i < handles.size(); ++i) EXPECT_FALSE(pool.contains(handles[i]));
  const PoolHandle again = *pool.emplace(-1);  // grows again, one page
  EXPECT_EQ(pool.capacity(), 3 * kPage);
  EXPECT_FALSE(pool.contains(handles[again.index])) << "a retired generation is not reissued";
}

TEST_F(PackedPages, ARaisedCapRebuildsAShortLastPageKeepingEveryHandle) {
  VectorPool<Tracked> capped(policy(StorageMode::packed_pages, 0, 0, 100, kPage));
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 100; ++i) handles.push_back(*capped.emplace(i));
  EXPECT_FALSE(capped.emplace(100).has_value()) << "at the cap";
  for (int i = 0; i < 100; i += 7) ASSERT_TRUE(capped.release(handles[static_cast<std::size_t>(i)]));
  GrowthPolicy raised = capped.policy();
  raised.max_capacity = 1000;
  ASSERT_TRUE(capped.set_policy(raised));
  EXPECT_TRUE(capped.validate());
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(capped.contains(handles[static_cast<std::size_t>(i)]), i % 7 != 0) << i;
    if (i % 7 != 0) {
      EXPECT_EQ(capped.get(handles[static_cast<std::size_t>(i)])->value(), i);
    }
  }
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(capped.emplace(1000 + i).has_value());
  EXPECT_TRUE(capped.validate());
}

// set_policy() migrates live objects between every ordered pair of layouts, handles kept,
// stale handles still stale, each object alive exactly once.
TEST(LayoutMigration, EveryPairOfLayoutsKeepsEveryHandle) {
  for (const StorageMode from : kAllModes) {
    for (const StorageMode to : kAllModes) {
      SCOPED_TRACE(std::string(engine::storage_mode_name(from)) + " -> " + engine::storage_mode_name(to));
      Lifetimes::reset();
      {
        VectorPool<Tracked> pool(policy(from, 0, 0, kDefaultMaxCapacity, kPage));
        std::vector<PoolHandle> handles;
        for (int i = 0; i < 700; ++i) handles.push_back(*pool.emplace(i));
        for (int i = 0; i < 700; i += 3) ASSERT_TRUE(pool.release(handles[static_cast<std::size_t>(i)]));
        GrowthPolicy next = pool.policy();
        next.storage = to;
        ASSERT_TRUE(pool.set_policy(next));
        EXPECT_EQ(pool.policy().storage, to);
        ASSERT_TRUE(pool.validate());
        for (int i = 0; i < 700; ++i) {
          const PoolHandle h = handles[static_cast<std::size_t>(i)];
          if (i % 3 == 0) {
            EXPECT_FALSE(pool.contains(h));
          } else {
            ASSERT_NE(pool.get(h), nullptr) << i;
            EXPECT_EQ(pool.get(h)->value(), i);
          }
        }
        EXPECT_EQ(Lifetimes::live(), 466);
        for (int i = 0; i < 500; ++i) ASSERT_TRUE(pool.emplace(i).has_value());  // and it grows on
        EXPECT_TRUE(pool.validate());
      }
      EXPECT_EQ(Lifetimes::live(), 0);
      EXPECT_EQ(Lifetimes::bad_destructions, 0);
    }
  }
}

}  // namespace
}  // namespace pool_test
