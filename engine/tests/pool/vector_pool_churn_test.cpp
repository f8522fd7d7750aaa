// VectorPool<T> under randomized churn, checked against a reference std::map after every
// phase (plf_hive's "erase randomly till empty", with fixed seeds so failures reproduce).
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

struct ChurnCase {
  const char* name;
  GrowthPolicy policy;
  bool switch_policies;  // set_policy() between contiguous and stable mid-run
  std::uint32_t seed;
};

void PrintTo(const ChurnCase& c, std::ostream* out) { *out << c.name << " seed " << c.seed; }

class Churn : public ::testing::TestWithParam<ChurnCase> {
 protected:
  void SetUp() override { Lifetimes::reset(); }

  // The pool and the reference agree on: the live set (with handles), every value, the
  // live instance count, address-order iteration; every dead handle is refused.
  void expect_matches_reference(const VectorPool<Tracked>& pool, int phase) {
    SCOPED_TRACE("phase " + std::to_string(phase));
    ASSERT_TRUE(pool.validate());
    ASSERT_EQ(pool.size(), reference_.size());
    ASSERT_EQ(Lifetimes::live(), static_cast<long>(reference_.size()));
    std::map<PoolHandle, int, HandleLess> seen;
    std::uint32_t previous_index = 0;
    bool first = true;
    pool.for_each([&](PoolHandle h, const Tracked& t) {
      EXPECT_TRUE(t.alive());
      EXPECT_TRUE(first || h.index > previous_index) << "not in address order";
      first = false;
      previous_index = h.index;
      seen.emplace(h, t.value());
    });
    ASSERT_EQ(seen, reference_);
    for (const auto& [h, value] : reference_) {
      const Tracked* t = pool.get(h);
      ASSERT_NE(t, nullptr);
      ASSERT_EQ(t->value(), value);
    }
    for (const PoolHandle h : dead_) ASSERT_FALSE(pool.contains(h)) << h.index << "/" << h.generation;
    std::size_t by_range_for = 0;
    for (const Tracked& t : pool) by_range_for += t.alive() ? 1u : 0u;
    ASSERT_EQ(by_range_for, reference_.size());
  }

  PoolHandle random_live(std::mt19937& rng) {
    auto it = reference_.begin();
    const std::size_t steps = std::uniform_int_distribution<std::size_t>(0, reference_.size() - 1)(rng);
    std::advance(it, static_cast<std::ptrdiff_t>(steps));
    return it->first;
  }

  void forget(PoolHandle h) {
    reference_.erase(h);
    dead_.push_back(h);
  }

  std::map<PoolHandle, int, HandleLess> reference_;
  std::vector<PoolHandle> dead_;
};

TEST_P(Churn, MatchesReferenceThroughEveryPhase) {
  const ChurnCase& c = GetParam();
  std::mt19937 rng(c.seed);
  int next_value = 0;
  {
    VectorPool<Tracked> pool(c.policy);
    for (int phase = 0; phase < 40; ++phase) {
      // Each phase leans toward growth early, toward shrinking late, so pools fill and drain.
      const int emplace_weight = phase < 20 ? 60 : 35;
      const int operations = std::uniform_int_distribution<int>(50, 400)(rng);
      for (int op = 0; op < operations; ++op) {
        const int roll = std::uniform_int_distribution<int>(0, 99)(rng);
        if (roll < emplace_weight || reference_.empty()) {
          const int value = next_value++;
          const auto h = pool.emplace(value);
          ASSERT_TRUE(h.has_value());
          ASSERT_TRUE(reference_.emplace(*h, value).second) << "handle issued twice";
        } else if (roll < emplace_weight + 25) {
          const PoolHandle h = random_live(rng);
          ASSERT_TRUE(pool.release(h));
          forget(h);
        } else if (roll < emplace_weight + 35) {
          const PoolHandle h = random_live(rng);
          pool.get(h)->set_value(-pool.get(h)->value());
          reference_[h] = -reference_[h];
        } else {
          const PoolHandle h = random_live(rng);  // deferred: alive until the flush below
          pool.release_later(h);
          ASSERT_NE(pool.get(h), nullptr);
          forget(h);
        }
      }
      pool.flush_releases();
      expect_matches_reference(pool, phase);
      if (HasFatalFailure()) return;

      switch (phase % 8) {
        case 2: {  // erase a random residue class
          const int modulus = std::uniform_int_distribution<int>(2, 7)(rng);
          std::vector<PoolHandle> doomed;
          for (const auto& [h, value] : reference_) {
            if (value % modulus == 0) doomed.push_back(h);
          }
          EXPECT_EQ(pool.erase_if([&](const Tracked& t) { return t.value() % modulus == 0; }), doomed.size());
          for (const PoolHandle h : doomed) forget(h);
          break;
        }
        case 4:
          pool.shrink_to_fit();
          break;
        case 5:
          if (c.switch_policies) {
            GrowthPolicy next = pool.policy();
            next.storage = next.storage == StorageMode::stable ? StorageMode::contiguous : StorageMode::stable;
            next.page_slots = phase % 16 == 5 ? 64 : 256;
            next.growth_step = phase % 3 == 0 ? 0 : 37;
            ASSERT_TRUE(pool.set_policy(next));
          }
          break;
        case 6:
          ASSERT_TRUE(pool.reserve(pool.size() + 300));
          break;
        case 7:
          if (phase == 31) {
            pool.clear();
            for (const auto& entry : reference_) dead_.push_back(entry.first);
            reference_.clear();
          }
          break;
        default:
          break;
      }
      expect_matches_reference(pool, phase);
      if (HasFatalFailure()) return;
    }
    // Drain randomly to empty.
    while (!reference_.empty()) {
      const PoolHandle h = random_live(rng);
      ASSERT_TRUE(pool.release(h));
      forget(h);
    }
    expect_matches_reference(pool, 99);
    EXPECT_EQ(pool.stats().emplaces, pool.stats().releases);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_EQ(Lifetimes::bad_destructions, 0);
}

// A pool left full at destruction must destroy each object exactly once.
TEST_P(Churn, DestructorDestroysWhatIsLeft) {
  const ChurnCase& c = GetParam();
  std::mt19937 rng(c.seed + 1);
  {
    VectorPool<Tracked> pool(c.policy);
    std::vector<PoolHandle> handles;
    for (int i = 0; i < 3000; ++i) {
      handles.push_back(*pool.emplace(i));
      if (rng() % 3 == 0) {
        const std::size_t victim = rng() % handles.size();
        if (pool.contains(handles[victim])) pool.release(handles[victim]);
      }
    }
    EXPECT_EQ(Lifetimes::live(), static_cast<long>(pool.size()));
  }
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_EQ(Lifetimes::bad_destructions, 0);
}

const ChurnCase kCases[] = {
    {"ContiguousDoubling", policy(StorageMode::contiguous, 8, 0, kDefaultMaxCapacity, 4096), false, 1},
    {"ContiguousStep", policy(StorageMode::contiguous, 1, 13, kDefaultMaxCapacity, 4096), false, 2},
    {"ContiguousFromZero", policy(StorageMode::contiguous, 0, 0, kDefaultMaxCapacity, 4096), false, 3},
    {"StableSmallPages", policy(StorageMode::stable, 0, 0, kDefaultMaxCapacity, 64), false, 4},
    {"StableBigPages", policy(StorageMode::stable, 100, 0, kDefaultMaxCapacity, 1024), false, 5},
    {"SwitchingFromContiguous", policy(StorageMode::contiguous, 16, 0, kDefaultMaxCapacity, 128), true, 6},
    {"SwitchingFromStable", policy(StorageMode::stable, 16, 5, kDefaultMaxCapacity, 64), true, 7},
    {"SwitchingSeed8", policy(StorageMode::contiguous, 3, 0, kDefaultMaxCapacity, 64), true, 8},
};

std::string churn_case_name(const ::testing::TestParamInfo<ChurnCase>& param) { return param.param.name; }

INSTANTIATE_TEST_SUITE_P(Policies, Churn, ::testing::ValuesIn(kCases), churn_case_name);

}  // namespace
}  // namespace pool_test
