// VectorPool<T>: set_policy(), shrink_to_fit() and growth in combination. Each test checks
// validate(), every live handle's value and the instance count after every step, because
// the bugs here (a hole in the stable index space) corrupt memory silently long before any
// single call returns a wrong answer.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

// Every pool here is stable; the page size and cap are what the tests vary.
GrowthPolicy stable(std::size_t page_slots, std::size_t max, std::size_t initial = 0, std::size_t step = 0) {
  return policy(StorageMode::stable, initial, step, max, page_slots);
}

// A pool plus the reference it must agree with.
class Checked {
 public:
  explicit Checked(const GrowthPolicy& p) : pool(p) {}

  void expect_consistent(const std::string& step) {
    SCOPED_TRACE(step);
    ASSERT_TRUE(pool.validate());
    ASSERT_LE(pool.capacity(), pool.policy().max_capacity);
    ASSERT_EQ(pool.size(), live.size());
    ASSERT_EQ(Lifetimes::live(), static_cast<long>(live.size()));
    ASSERT_EQ(Lifetimes::bad_destructions, 0);
    for (const auto& [h, value] : live) {
      const Tracked* t = pool.get(h);
      ASSERT_NE(t, nullptr) << "live handle " << h.index << " refused";
      ASSERT_EQ(t->value(), value);
    }
    for (const PoolHandle h : dead) ASSERT_FALSE(pool.contains(h));
    std::size_t visited = 0;
    pool.for_each([&](PoolHandle h, const Tracked& t) {
      ++visited;
      EXPECT_EQ(live.count(h), 1u);
      EXPECT_TRUE(t.alive());
    });
    ASSERT_EQ(visited, live.size());
  }

  bool emplace() {
    const auto h = pool.emplace(next_value);
    if (!h) return false;
    live.emplace(*h, next_value++);
    return true;
  }

  // Releases about a third at random, then refills to `target` live objects.
  void churn(std::mt19937& rng, std::size_t target, const std::string& step) {
    for (auto it = live.begin(); it != live.end();) {
      if (rng() % 3 == 0) {
        ASSERT_TRUE(pool.release(it->first));
        dead.push_back(it->first);
        it = live.erase(it);
      } else {
        ++it;
      }
    }
    expect_consistent(step + " (released)");
    while (live.size() < target) {
      ASSERT_TRUE(emplace()) << step << ": emplace refused below the cap at " << live.size();
      expect_consistent(step + " (refilling, " + std::to_string(live.size()) + " live)");
    }
  }

  VectorPool<Tracked> pool;
  std::map<PoolHandle, int, HandleLess> live;
  std::vector<PoolHandle> dead;
  int next_value = 0;
};

struct RaiseCase {
  const char* name;
  std::size_t page_slots;       // first policy
  std::size_t first_max;        // cuts the last page short (not a multiple of page_slots)
  std::size_t next_page_slots;  // second policy: same or different page size
  std::size_t next_max;
};

class RaiseCapAfterShortPage : public ::testing::TestWithParam<RaiseCase> {
 protected:
  void SetUp() override { Lifetimes::reset(); }
  void TearDown() override {
    EXPECT_EQ(Lifetimes::live(), 0);
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }
};

// The fuzzer's regress_stable_partial_page_then_grow: a stable pool filled to a cap that
// ends inside a page, the cap raised, then growth and churn. The storage holds whole pages, so
// the slots past the old cap fill the rest of the short page before a page is added, and the
// bump index never walks past the pages' end.
TEST_P(RaiseCapAfterShortPage, GrowthAndChurnKeepEveryInvariant) {
  const RaiseCase c = GetParam();
  std::mt19937 rng(1234);
  {
    Checked t(stable(c.page_slots, c.first_max));
    while (t.emplace()) t.expect_consistent("filling to the first cap");
    ASSERT_EQ(t.pool.size(), c.first_max);
    ASSERT_EQ(t.pool.capacity(), c.first_max);
    t.churn(rng, c.first_max, "churn at the first cap");

    GrowthPolicy raised = stable(c.next_page_slots, c.next_max);
    ASSERT_TRUE(t.pool.set_policy(raised));
    t.expect_consistent("after raising the cap");
    ASSERT_GE(t.pool.capacity(), c.first_max);

    while (t.live.size() < c.next_max) {
      ASSERT_TRUE(t.emplace()) << "emplace refused below the raised cap at " << t.live.size();
      t.expect_consistent("growing to the raised cap, " + std::to_string(t.live.size()) + " live");
    }
    EXPECT_FALSE(t.pool.emplace(-1).has_value());
    EXPECT_EQ(t.pool.capacity(), c.next_max);
    for (int round = 0; round < 4; ++round) t.churn(rng, c.next_max, "churn round " + std::to_string(round));

    t.pool.shrink_to_fit();
    t.expect_consistent("after shrink_to_fit");
    t.churn(rng, c.next_max / 2, "churn after shrink_to_fit");
  }
}

const RaiseCase kRaiseCases[] = {
    {"SamePageFuzzerCase", 128, 21, 128, 256},  // the fuzzer's input: 64-slot page of a 128-slot layout
    {"SamePageSecondPageShort", 128, 150, 128, 700},
    {"SamePageCapInsideWholePage", 128, 200, 128, 700},  // 200 - 128 = 72 -> a whole page, capacity 200
    {"SamePageRaisedStillShort", 256, 70, 256, 150},     // the rebuilt page is still cut short
    {"SmallerPage", 128, 21, 64, 300},
    {"LargerPage", 64, 100, 256, 600},
};

std::string raise_case_name(const ::testing::TestParamInfo<RaiseCase>& param_info) { return param_info.param.name; }

INSTANTIATE_TEST_SUITE_P(Cases, RaiseCapAfterShortPage, ::testing::ValuesIn(kRaiseCases), raise_case_name);

TEST(SetPolicyStable, RaisingTheCapOverAPageCutShortMovesNothing) {
  Lifetimes::reset();
  {
    VectorPool<Tracked> pool(stable(128, 150));  // a page of 128, then one the cap cuts to 22 slots
    std::vector<PoolHandle> handles;
    std::vector<const Tracked*> addresses;
    for (int i = 0; i < 150; ++i) {
      handles.push_back(*pool.emplace(i));
      addresses.push_back(pool.get(handles.back()));
    }
    ASSERT_EQ(pool.capacity(), 150u);
    EXPECT_FALSE(pool.emplace(150).has_value());
    std::vector<GrowthEvent> events;
    pool.set_growth_listener([&](const GrowthEvent& e) { events.push_back(e); });
    ASSERT_TRUE(pool.set_policy(stable(128, 1000)));
    ASSERT_TRUE(pool.validate());
    EXPECT_TRUE(events.empty()) << "pages are always whole: a raised cap touches no memory";
    for (int i = 150; i < 600; ++i) ASSERT_TRUE(pool.emplace(i).has_value());
    for (int i = 0; i < 150; ++i) {
      const auto k = static_cast<std::size_t>(i);
      ASSERT_EQ(pool.get(handles[k])->value(), i);
      EXPECT_EQ(pool.get(handles[k]), addresses[k]) << "no object moved";
    }
    EXPECT_FALSE(events.empty());
    for (const GrowthEvent& e : events) EXPECT_FALSE(e.relocated);
    EXPECT_TRUE(pool.validate());
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST(SetPolicyStable, CapBelowAWholePageThenRaisedMakesTheRestOfThePageUsable) {
  Lifetimes::reset();
  {
    // max 40 with 64-slot pages: one whole page (64 rounds to a word), capacity 40.
    VectorPool<Tracked> pool(stable(64, 40));
    for (int i = 0; i < 40; ++i) ASSERT_TRUE(pool.emplace(i).has_value());
    EXPECT_FALSE(pool.emplace(40).has_value());
    ASSERT_TRUE(pool.set_policy(stable(64, 1000)));
    EXPECT_EQ(pool.capacity(), 40u) << "capacity grows when asked, into the page it already has";
    ASSERT_TRUE(pool.validate());
    for (int i = 40; i < 300; ++i) {
      ASSERT_TRUE(pool.emplace(i).has_value());
      ASSERT_TRUE(pool.validate()) << i;
    }
    EXPECT_EQ(pool.size(), 300u);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

TEST(SetPolicyStable, LoweringThenRaisingTheCapKeepsThePoolConsistent) {
  Lifetimes::reset();
  std::mt19937 rng(99);
  {
    Checked t(stable(64, 1000, 0, 0));
    for (int i = 0; i < 150; ++i) ASSERT_TRUE(t.emplace());
    t.expect_consistent("150 live");
    ASSERT_EQ(t.pool.capacity(), 192u);
    EXPECT_FALSE(t.pool.set_policy(stable(64, 191))) << "a cap below the capacity is refused";
    ASSERT_TRUE(t.pool.set_policy(stable(64, 192)));
    t.churn(rng, 192, "at the lowered cap");
    EXPECT_FALSE(t.pool.emplace(-1).has_value());
    ASSERT_TRUE(t.pool.set_policy(stable(64, 500)));
    t.churn(rng, 500, "after raising again");
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

}  // namespace
}  // namespace pool_test
