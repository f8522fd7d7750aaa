// engine::ConcurrentPool: single-thread contract, then the same contract under contention.
// Thread counts are 4 on a 2-core machine on purpose: preemption in the middle of an
// operation is what finds races. Every test runs in well under a second, TSan included.
#include <engine/pool/concurrent_pool.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using engine::ConcurrentPool;
using engine::ConcurrentPoolConfig;
using engine::PoolHandle;

// Instance tracking that threads can share: every count is atomic.
struct Counts {
  static inline std::atomic<long> constructed{0};
  static inline std::atomic<long> destroyed{0};
  static inline std::atomic<long> bad_destructions{0};  // destructor on a dead or torn object
  static inline std::atomic<long> peak_live{0};
  static long live() { return constructed.load() - destroyed.load(); }
  static void reset() {
    constructed = 0;
    destroyed = 0;
    bad_destructions = 0;
    peak_live = 0;
  }
};

// Carries a value and its complement: a torn, reused or garbage object fails intact().
class CountedTracked {
 public:
  explicit CountedTracked(std::uint64_t value) : value_(value), check_(~value) {
    const long now = Counts::constructed.fetch_add(1) + 1 - Counts::destroyed.load();
    long peak = Counts::peak_live.load();
    while (now > peak && !Counts::peak_live.compare_exchange_weak(peak, now)) {}
  }
  CountedTracked(const CountedTracked&) = delete;
  CountedTracked& operator=(const CountedTracked&) = delete;
  ~CountedTracked() {
    if (!intact()) Counts::bad_destructions.fetch_add(1);
    check_ = value_;  // a second destruction now fails intact()
    Counts::destroyed.fetch_add(1);
  }
  std::uint64_t value() const { return value_; }
  bool intact() const { return check_ == ~value_; }

 private:
  std::uint64_t value_;
  std::uint64_t check_;
};

// What the CountedTracked behind `h` holds, or kMissing when get() refuses: tests never
// dereference a pointer the pool may have refused to give.
constexpr std::uint64_t kMissing = ~std::uint64_t{0};
std::uint64_t value_of(ConcurrentPool<CountedTracked>& pool, PoolHandle h) {
  const CountedTracked* object = pool.get(h);
  return object != nullptr ? object->value() : kMissing;
}

ConcurrentPoolConfig config(std::size_t page_slots, std::size_t initial, std::size_t max) {
  ConcurrentPoolConfig c;
  c.page_slots = page_slots;
  c.initial_capacity = initial;
  c.max_capacity = max;
  return c;
}

// Per-index "currently handed out" flags: a second hand-out of a live slot flips a set flag.
class HandOutLedger {
 public:
  explicit HandOutLedger(std::size_t slots) : flags_(new std::atomic<bool>[slots]()), size_(slots) {}
  bool take(PoolHandle h) {  // false: this slot was already live
    return h.index < size_ && !flags_[h.index].exchange(true);
  }
  bool give_back(PoolHandle h) {  // call before release(): after it the slot may be reused
    return h.index < size_ && flags_[h.index].exchange(false);
  }

 private:
  std::unique_ptr<std::atomic<bool>[]> flags_;
  std::size_t size_;
};

// A handle and the value its object must hold.
struct Owned {
  PoolHandle handle;
  std::uint64_t value;
};

// Handles change threads through this queue; the mutex also orders the objects' contents.
class Exchange {
 public:
  void put(Owned o) {
    std::lock_guard<std::mutex> lock(mutex_);
    items_.push_back(o);
  }
  std::optional<Owned> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (items_.empty()) return std::nullopt;
    Owned o = items_.front();
    items_.pop_front();
    return o;
  }
  std::vector<Owned> drain() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Owned> all(items_.begin(), items_.end());
    items_.clear();
    return all;
  }

 private:
  std::mutex mutex_;
  std::deque<Owned> items_;
};

// Starts N threads together, so they really overlap instead of running one after another.
template <class Body>
void run_threads(int n, Body body) {
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < n) std::this_thread::yield();
      body(t);
    });
  }
  for (auto& th : threads) th.join();
}

void expect_slots_accounted(const engine::ConcurrentPoolStats& s) {
  EXPECT_EQ(s.live + s.shared_free + s.cached_free, s.capacity)
      << "live " << s.live << " shared " << s.shared_free << " cached " << s.cached_free;
}

// --- the single-thread contract ----------------------------------------------------------

TEST(ConcurrentPool, EmplaceGetReleaseWithGenerations) {
  Counts::reset();
  {
    ConcurrentPool<CountedTracked> pool(config(64, 0, 1024));
    const auto h = pool.emplace(42u);
    ASSERT_TRUE(h.has_value());
    EXPECT_FALSE(h->is_null());
    EXPECT_EQ(value_of(pool, *h), 42u);
    EXPECT_TRUE(pool.contains(*h));
    EXPECT_EQ(pool.size(), 1u);

    EXPECT_TRUE(pool.release(*h));
    EXPECT_EQ(Counts::live(), 0);
    EXPECT_EQ(pool.get(*h), nullptr);
    EXPECT_FALSE(pool.contains(*h));
    EXPECT_FALSE(pool.try_release(*h)) << "double release must be refused";

    // The slot comes straight back from this thread's magazine with a new generation.
    const auto again = pool.emplace(7u);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->index, h->index);
    EXPECT_NE(again->generation, h->generation);
    EXPECT_EQ(pool.get(*h), nullptr) << "a stale handle never reaches the new occupant";
    EXPECT_EQ(value_of(pool, *again), 7u);
    EXPECT_FALSE(pool.try_release(*h));
    EXPECT_EQ(Counts::live(), 1) << "a refused stale release must not destroy the new object";

    const auto s = pool.stats();
    EXPECT_EQ(s.emplaces, 2u);
    EXPECT_EQ(s.releases, 1u);
    EXPECT_EQ(s.failed_releases, 2u);
    EXPECT_EQ(s.stale_gets, 2u);
    EXPECT_EQ(s.live, 1u);
    EXPECT_EQ(s.thread_caches, 1u);
    expect_slots_accounted(s);
  }
  EXPECT_EQ(Counts::live(), 0) << "the destructor destroys what is still live";
  EXPECT_EQ(Counts::bad_destructions, 0);
}

TEST(ConcurrentPool, NullAndForeignHandlesAreRefused) {
  ConcurrentPool<int> a(config(64, 0, 1024));
  ConcurrentPool<int> b(config(64, 0, 1024));
  const auto ha = a.emplace(1);
  const auto hb = b.emplace(2);
  ASSERT_TRUE(ha && hb);
  ASSERT_EQ(ha->index, hb->index) << "same slot number in both pools: only the tag tells them apart";

  EXPECT_FALSE(a.try_release(PoolHandle{}));
  EXPECT_EQ(a.get(PoolHandle{}), nullptr);
  EXPECT_EQ(b.get(*ha), nullptr) << "a handle from pool a must not reach pool b's object";
  EXPECT_FALSE(b.try_release(*ha));
  EXPECT_FALSE(a.try_release(PoolHandle{5000, ha->generation})) << "index beyond max_capacity";
  EXPECT_FALSE(a.try_release(PoolHandle{900, ha->generation})) << "index in a page never allocated";
  const int* in_b = b.get(*hb);
  const int* in_a = a.get(*ha);
  ASSERT_TRUE(in_a != nullptr && in_b != nullptr);
  EXPECT_EQ(*in_b, 2);
  EXPECT_EQ(*in_a, 1);
  EXPECT_EQ(a.stats().failed_releases, 3u);
  EXPECT_EQ(b.stats().failed_releases, 1u);
}

TEST(ConcurrentPool, PagesNeverMoveWhenThePoolGrows) {
  Counts::reset();
  ConcurrentPool<CountedTracked> pool(config(64, 0, 1u << 16));
  const auto first = pool.emplace(1u);
  ASSERT_TRUE(first);
  const CountedTracked* before = pool.get(*first);
  std::vector<PoolHandle> more;
  for (std::uint64_t i = 0; i < 5000; ++i) more.push_back(*pool.emplace(i + 2));
  EXPECT_GE(pool.stats().growth_events, 5000u / 64);
  EXPECT_EQ(pool.get(*first), before);
  EXPECT_EQ(before->value(), 1u);
  EXPECT_TRUE(before->intact());
  for (std::size_t i = 0; i < more.size(); ++i) EXPECT_EQ(value_of(pool, more[i]), i + 2);
}

TEST(ConcurrentPool, AnyTypeWorks) {
  struct alignas(64) Wide {
    explicit Wide(int v) : value(v) {}
    int value;
  };
  struct NoDefault {
    NoDefault(int a, int b) : sum(a + b) {}
    int sum;
  };
  ConcurrentPool<Wide> wide(config(64, 0, 4096));
  ConcurrentPool<std::unique_ptr<int>> move_only(config(64, 0, 4096));
  ConcurrentPool<NoDefault> no_default(config(64, 0, 4096));
  for (int i = 0; i < 200; ++i) {
    const auto h = wide.emplace(i);
    ASSERT_TRUE(h);
    const Wide* w = wide.get(*h);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(w) % 64, 0u);
    EXPECT_EQ(w->value, i);
  }
  const auto p = move_only.emplace(std::make_unique<int>(9));
  ASSERT_TRUE(p);
  const std::unique_ptr<int>* owner = move_only.get(*p);
  ASSERT_TRUE(owner != nullptr && *owner != nullptr);
  EXPECT_EQ(**owner, 9);
  const auto n = no_default.emplace(2, 3);
  ASSERT_TRUE(n);
  const NoDefault* nd = no_default.get(*n);
  ASSERT_NE(nd, nullptr);
  EXPECT_EQ(nd->sum, 5);
}

// Aggregates with no constructor are built with braces, T{args...}, as VectorPool builds them.
TEST(ConcurrentPool, AggregatesWithoutAConstructorAreBuiltWithBraces) {
  struct Point {
    int a;
    float b;
  };
  struct Named {  // may throw: the emplace path that hands the slot back
    std::string name;
    int n;
  };
  static_assert(!std::is_constructible_v<Point, int, float>);
  ConcurrentPool<Point> points(config(64, 0, 4096));
  ConcurrentPool<Named> named(config(64, 0, 4096));
  const auto p = points.emplace(1, 2.0f);
  ASSERT_TRUE(p);
  const Point* point = points.get(*p);
  ASSERT_NE(point, nullptr);
  EXPECT_EQ(point->a, 1);
  EXPECT_EQ(point->b, 2.0f);
  const auto n = named.emplace("node", 3);
  ASSERT_TRUE(n);
  const Named* node = named.get(*n);
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->name, "node");
  EXPECT_EQ(node->n, 3);
}

TEST(ConcurrentPool, ThrowingConstructorLeavesThePoolAsItWas) {
  struct Picky {
    explicit Picky(bool fail) {
      if (fail) throw std::runtime_error("refused");
    }
  };
  ConcurrentPool<Picky> pool(config(64, 64, 1024));
  const auto kept = pool.emplace(false);
  const auto before = pool.stats();
  EXPECT_THROW(pool.emplace(true), std::runtime_error);
  const auto after = pool.stats();
  EXPECT_EQ(after.live, before.live);
  EXPECT_EQ(after.emplaces, before.emplaces);
  EXPECT_EQ(after.capacity, before.capacity);
  expect_slots_accounted(after);
  EXPECT_NE(pool.get(*kept), nullptr);
  EXPECT_TRUE(pool.emplace(false));
}

TEST(ConcurrentPool, MaxCapacityIsAHardLimit) {
  ConcurrentPool<int> pool(config(64, 0, 100));  // the second page is only partly usable
  std::vector<PoolHandle> handles;
  while (auto h = pool.emplace(1)) handles.push_back(*h);
  EXPECT_EQ(handles.size(), 100u);
  EXPECT_EQ(pool.capacity(), 100u);
  EXPECT_FALSE(pool.emplace(2));
  EXPECT_FALSE(pool.reserve(101));
  EXPECT_EQ(pool.stats().failed_emplaces, 2u);  // the loop's last try and the one above
  EXPECT_TRUE(pool.release(handles.back()));
  EXPECT_TRUE(pool.emplace(3)) << "a released slot is usable again at the cap";
}

// A thread's cache holds 320 free slots: bursts up to 320 objects recycle the
// thread's own slots and leave the shared list alone.
TEST(ConcurrentPool, BurstsWithinTheThreadCacheNeverTouchTheSharedList) {
  ConcurrentPool<int> pool(config(1024, 1024, 4096));
  std::vector<PoolHandle> burst;
  auto run_burst = [&] {
    for (int i = 0; i < 320; ++i) burst.push_back(*pool.emplace(i));
    for (const PoolHandle h : burst) ASSERT_TRUE(pool.release(h));
    burst.clear();
  };
  run_burst();
  const auto warm = pool.stats();
  EXPECT_EQ(warm.cached_free, 320u);
  for (int k = 0; k < 10; ++k) run_burst();
  const auto after = pool.stats();
  EXPECT_EQ(after.shared_free, warm.shared_free);
  EXPECT_EQ(after.cached_free, 320u);
  EXPECT_EQ(after.capacity, 1024u) << "no growth either";
  expect_slots_accounted(after);
  for (int i = 0; i < 400; ++i) burst.push_back(*pool.emplace(i));
  EXPECT_EQ(pool.stats().shared_free, warm.shared_free - 96) << "80 more: three chains of 32 from the shared list";
  for (const PoolHandle h : burst) ASSERT_TRUE(pool.release(h));
  EXPECT_EQ(pool.stats().shared_free, warm.shared_free) << "... and spills what the cache cannot keep";
  EXPECT_EQ(pool.stats().cached_free, 320u);
  expect_slots_accounted(pool.stats());
}

TEST(ConcurrentPool, ForEachVisitsLiveObjectsAndClearDestroysThemOnce) {
  Counts::reset();
  ConcurrentPool<CountedTracked> pool(config(64, 0, 4096));
  std::vector<PoolHandle> handles;
  for (std::uint64_t i = 0; i < 300; ++i) handles.push_back(*pool.emplace(i));
  for (std::size_t i = 0; i < handles.size(); i += 3) ASSERT_TRUE(pool.release(handles[i]));
  std::uint64_t sum = 0;
  std::size_t visited = 0;
  pool.for_each([&](PoolHandle h, CountedTracked& t) {
    EXPECT_EQ(pool.get(h), &t);
    sum += t.value();
    ++visited;
  });
  std::uint64_t expected = 0;
  for (std::uint64_t i = 0; i < 300; ++i) expected += (i % 3 == 0) ? 0 : i;
  EXPECT_EQ(visited, 200u);
  EXPECT_EQ(sum, expected);

  pool.clear();
  EXPECT_EQ(Counts::live(), 0);
  EXPECT_EQ(Counts::bad_destructions, 0);
  EXPECT_EQ(pool.size(), 0u);
  for (const PoolHandle h : handles) EXPECT_EQ(pool.get(h), nullptr);
  expect_slots_accounted(pool.stats());
}

// --- the same contract across threads -----------------------------------------------------

// Four threads emplace, release, and pass handles to each other; afterwards every count,
// every surviving value and the slot accounting must agree, and no slot was ever handed out
// twice while live.
TEST(ConcurrentPoolThreads, ChurnWithHandlesPassedBetweenThreads) {
  Counts::reset();
  constexpr int kThreads = 4;
  constexpr int kOpsPerThread = 150000;
  constexpr std::size_t kMax = 1u << 16;
  ConcurrentPool<CountedTracked> pool(config(64, 0, kMax));  // small pages: growth under contention
  HandOutLedger ledger(kMax);
  Exchange exchange;
  std::mutex survivors_mutex;
  std::vector<Owned> survivors;
  std::atomic<int> twice_handed_out{0}, wrong_values{0}, refused{0}, emplace_failures{0};

  run_threads(kThreads, [&](int t) {
    std::mt19937 rng(1234u + static_cast<unsigned>(t));
    std::vector<Owned> mine;
    auto check = [&](const Owned& o) {
      const CountedTracked* obj = pool.get(o.handle);
      if (obj == nullptr || obj->value() != o.value || !obj->intact()) wrong_values.fetch_add(1);
    };
    auto release = [&](const Owned& o) {
      check(o);
      if (!ledger.give_back(o.handle)) twice_handed_out.fetch_add(1);
      if (!pool.release(o.handle)) refused.fetch_add(1);
    };
    for (int op = 0; op < kOpsPerThread; ++op) {
      const auto roll = rng() % 100;
      if (roll < 45) {
        const std::uint64_t value = (static_cast<std::uint64_t>(t) << 32) | static_cast<unsigned>(op);
        const auto h = pool.emplace(value);
        if (!h) {
          emplace_failures.fetch_add(1);
          continue;
        }
        if (!ledger.take(*h)) twice_handed_out.fetch_add(1);
        if (rng() % 2 == 0) {
          exchange.put({*h, value});
        } else {
          mine.push_back({*h, value});
        }
      } else if (roll < 75) {
        if (mine.empty()) continue;
        const std::size_t pick = rng() % mine.size();
        release(mine[pick]);
        mine[pick] = mine.back();
        mine.pop_back();
      } else if (const auto o = exchange.take()) {  // another thread's object, most likely
        if (rng() % 2 == 0) {
          release(*o);
        } else {
          check(*o);
          mine.push_back(*o);
        }
      }
    }
    std::lock_guard<std::mutex> lock(survivors_mutex);
    survivors.insert(survivors.end(), mine.begin(), mine.end());
  });
  const std::vector<Owned> queued = exchange.drain();
  survivors.insert(survivors.end(), queued.begin(), queued.end());

  EXPECT_EQ(twice_handed_out, 0);
  EXPECT_EQ(wrong_values, 0);
  EXPECT_EQ(refused, 0);
  EXPECT_EQ(emplace_failures, 0);
  EXPECT_EQ(Counts::bad_destructions, 0);
  EXPECT_GT(survivors.size(), 1000u);
  EXPECT_EQ(Counts::live(), static_cast<long>(survivors.size()));
  EXPECT_EQ(pool.size(), survivors.size());
  for (const Owned& o : survivors) {
    const CountedTracked* obj = pool.get(o.handle);
    ASSERT_NE(obj, nullptr);
    EXPECT_EQ(obj->value(), o.value);
  }
  std::size_t visited = 0;
  pool.for_each([&](CountedTracked&) { ++visited; });
  EXPECT_EQ(visited, survivors.size());

  const auto s = pool.stats();
  EXPECT_EQ(s.thread_caches, 0u) << "exited threads leave no magazine behind";
  EXPECT_EQ(s.cached_free, 0u) << "exited threads hand their free slots back";
  EXPECT_EQ(s.failed_releases, 0u);
  EXPECT_GT(s.growth_events, 10u);
  expect_slots_accounted(s);

  for (const Owned& o : survivors) ASSERT_TRUE(pool.release(o.handle));
  EXPECT_EQ(Counts::live(), 0);
  EXPECT_EQ(pool.size(), 0u);
}

// Threads emplace until the pool refuses: exactly max_capacity objects exist at the end,
// and there were never more at any moment.
TEST(ConcurrentPoolThreads, MaxCapacityHoldsUnderContention) {
  Counts::reset();
  constexpr std::size_t kMax = 1000;  // not a page multiple: the last page is partly usable
  ConcurrentPool<CountedTracked> pool(config(64, 0, kMax));
  HandOutLedger ledger(kMax);
  std::atomic<std::size_t> emplaced{0};
  std::atomic<int> twice{0};
  run_threads(4, [&](int) {
    while (const auto h = pool.emplace(std::uint64_t{1})) {
      if (!ledger.take(*h)) twice.fetch_add(1);
      emplaced.fetch_add(1);
    }
  });
  EXPECT_EQ(twice, 0);
  EXPECT_EQ(emplaced.load(), kMax) << "every slot was used, none twice";
  EXPECT_EQ(Counts::peak_live.load(), static_cast<long>(kMax));
  const auto s = pool.stats();
  EXPECT_EQ(s.capacity, kMax);
  EXPECT_EQ(s.live, kMax);
  EXPECT_GE(s.failed_emplaces, 4u);
  expect_slots_accounted(s);
}

// With releases in the mix, threads hover at the cap: the cap still holds at every moment.
TEST(ConcurrentPoolThreads, ChurnAtTheCapNeverExceedsIt) {
  Counts::reset();
  constexpr std::size_t kMax = 300;
  ConcurrentPool<CountedTracked> pool(config(64, 0, kMax));
  std::atomic<std::size_t> failures{0};
  run_threads(4, [&](int t) {
    std::mt19937 rng(99u + static_cast<unsigned>(t));
    std::vector<PoolHandle> mine;
    for (int op = 0; op < 20000; ++op) {
      if (rng() % 100 < 60) {
        if (const auto h = pool.emplace(std::uint64_t{2})) {
          mine.push_back(*h);
        } else {
          failures.fetch_add(1);
        }
      } else if (!mine.empty()) {
        ASSERT_TRUE(pool.release(mine.back()));
        mine.pop_back();
      }
    }
    for (const PoolHandle h : mine) ASSERT_TRUE(pool.release(h));
  });
  EXPECT_LE(Counts::peak_live.load(), static_cast<long>(kMax));
  EXPECT_GT(failures.load(), 0u) << "the workload must actually reach the cap";
  EXPECT_EQ(Counts::live(), 0);
  const auto s = pool.stats();
  EXPECT_LE(s.capacity, kMax);
  EXPECT_EQ(s.failed_emplaces, failures.load());
  expect_slots_accounted(s);
}

// Four threads release the same handles at once: each handle is released exactly once.
TEST(ConcurrentPoolThreads, RacingReleasesOfOneHandleHaveExactlyOneWinner) {
  Counts::reset();
  constexpr int kThreads = 4;
  constexpr std::size_t kHandles = 256;
  constexpr int kRaces = 32;
  ConcurrentPool<CountedTracked> pool(config(64, 0, 4096));
  std::uint64_t total_wins = 0;
  for (int round = 0; round < kRaces; ++round) {
    std::vector<PoolHandle> handles;
    for (std::size_t i = 0; i < kHandles; ++i) handles.push_back(*pool.emplace(std::uint64_t{i}));
    std::unique_ptr<std::atomic<int>[]> wins(new std::atomic<int>[kHandles]());
    run_threads(kThreads, [&](int t) {
      for (std::size_t k = 0; k < kHandles; ++k) {
        const std::size_t i = (t % 2 == 0) ? k : kHandles - 1 - k;  // collide from both ends
        if (pool.try_release(handles[i])) wins[i].fetch_add(1);
      }
    });
    for (std::size_t i = 0; i < kHandles; ++i) {
      ASSERT_EQ(wins[i].load(), 1) << "handle " << i << " in round " << round;
      EXPECT_EQ(pool.get(handles[i]), nullptr);
    }
    total_wins += kHandles;
  }
  EXPECT_EQ(Counts::live(), 0);
  EXPECT_EQ(Counts::bad_destructions, 0);
  const auto s = pool.stats();
  EXPECT_EQ(s.releases, total_wins);
  EXPECT_EQ(s.failed_releases, total_wins * (kThreads - 1));
}

// One thread keeps reusing slots; the others hammer it with handles it already released.
// A stale handle must never release the slot's new occupant.
TEST(ConcurrentPoolThreads, StaleHandlesNeverReleaseTheNextOccupant) {
  Counts::reset();
  ConcurrentPool<CountedTracked> pool(config(64, 0, 4096));
  std::atomic<std::uint64_t> stale_word{0};  // the latest released handle, packed
  std::atomic<bool> done{false};
  std::atomic<int> stale_wins{0}, owner_failures{0};
  std::atomic<long> stale_attempts{0};
  run_threads(4, [&](int t) {
    if (t == 0) {
      std::deque<PoolHandle> ring;
      // Keep reusing slots until the attackers have really had their go.
      for (std::uint64_t i = 0; i < 60000 || stale_attempts.load() < 30000; ++i) {
        const auto h = pool.emplace(i);
        if (!h) {
          owner_failures.fetch_add(1);
          continue;
        }
        ring.push_back(*h);
        if (ring.size() > 8) {
          const PoolHandle old = ring.front();
          ring.pop_front();
          if (!pool.release(old)) owner_failures.fetch_add(1);
          stale_word.store((std::uint64_t{old.generation} << 32) | old.index);
        }
      }
      for (const PoolHandle h : ring) {
        if (!pool.release(h)) owner_failures.fetch_add(1);
      }
      done.store(true);
    } else {
      while (!done.load()) {
        const std::uint64_t w = stale_word.load();
        const PoolHandle stale{static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(w >> 32)};
        if (stale.is_null()) continue;
        if (pool.try_release(stale)) stale_wins.fetch_add(1);
        stale_attempts.fetch_add(1);
      }
    }
  });
  EXPECT_EQ(stale_wins, 0);
  EXPECT_EQ(owner_failures, 0);
  EXPECT_EQ(Counts::live(), 0);
  EXPECT_EQ(Counts::bad_destructions, 0);
  EXPECT_GE(pool.stats().failed_releases, 30000u);
}

// stats() and size() are read while four threads work: TSan checks the reads; the reader
// checks what must hold at every instant.
TEST(ConcurrentPoolThreads, StatsAreSafeToReadWhileThreadsWork) {
  constexpr std::size_t kMax = 2048;
  ConcurrentPool<int> pool(config(64, 0, kMax));
  std::atomic<int> workers_done{0};
  std::atomic<int> impossible{0};
  std::thread reader([&] {
    while (workers_done.load() < 4) {
      const auto s = pool.stats();
      if (s.capacity > kMax || s.pages * 64 < s.capacity) impossible.fetch_add(1);
      static_cast<void>(pool.size());
      std::this_thread::yield();
    }
  });
  run_threads(4, [&](int t) {
    std::mt19937 rng(7u + static_cast<unsigned>(t));
    std::vector<PoolHandle> mine;
    for (int op = 0; op < 20000; ++op) {
      if (rng() % 2 == 0 || mine.empty()) {
        if (const auto h = pool.emplace(op)) mine.push_back(*h);
      } else {
        pool.release(mine.back());
        mine.pop_back();
      }
    }
    for (const PoolHandle h : mine) pool.release(h);
    workers_done.fetch_add(1);
  });
  reader.join();
  EXPECT_EQ(impossible, 0);
  const auto s = pool.stats();
  EXPECT_EQ(s.live, 0u);
  EXPECT_EQ(s.emplaces, s.releases);
  expect_slots_accounted(s);
}

// --- thread exit and pool destruction, in either order -----------------------------------

TEST(ConcurrentPoolThreads, ThreadExitHandsItsCachedSlotsBack) {
  constexpr std::size_t kMax = 128;
  ConcurrentPool<int> pool(config(64, 0, kMax));
  std::thread worker([&] {
    std::vector<PoolHandle> all;
    while (const auto h = pool.emplace(1)) all.push_back(*h);
    EXPECT_EQ(all.size(), kMax);
    for (const PoolHandle h : all) EXPECT_TRUE(pool.release(h));
    EXPECT_GT(pool.stats().cached_free, 0u) << "the worker's magazine holds slots before it exits";
  });
  worker.join();
  const auto s = pool.stats();
  EXPECT_EQ(s.cached_free, 0u);
  EXPECT_EQ(s.thread_caches, 0u);
  EXPECT_EQ(s.shared_free, kMax);
  EXPECT_EQ(s.emplaces, kMax) << "an exited thread's counts stay in the totals";
  std::size_t emplaced = 0;
  while (pool.emplace(2)) ++emplaced;
  EXPECT_EQ(emplaced, kMax) << "no slot was lost with the exited thread";
}

TEST(ConcurrentPoolThreads, FlushThreadCacheMakesSlotsAvailableToOthers) {
  constexpr std::size_t kMax = 64;
  ConcurrentPool<int> pool(config(64, 0, kMax));
  std::vector<PoolHandle> all;
  while (const auto h = pool.emplace(1)) all.push_back(*h);
  for (const PoolHandle h : all) pool.release(h);
  EXPECT_EQ(pool.stats().cached_free, kMax) << "all free slots sit in this thread's magazine";
  std::size_t before_flush = 0;
  std::thread([&] { before_flush = pool.emplace(2) ? 1 : 0; }).join();
  EXPECT_EQ(before_flush, 0u) << "another thread cannot reach this thread's cache";
  pool.flush_thread_cache();
  std::size_t after_flush = 0;
  std::thread([&] {
    while (pool.emplace(3)) ++after_flush;
  }).join();
  EXPECT_EQ(after_flush, kMax);
}

TEST(ConcurrentPoolThreads, PoolDestroyedBeforeTheThreadThatCachedItsSlots) {
  Counts::reset();
  auto pool = std::make_unique<ConcurrentPool<CountedTracked>>(config(64, 0, 1024));
  std::atomic<int> stage{0};
  std::thread worker([&] {
    std::vector<PoolHandle> hs;
    for (std::uint64_t i = 0; i < 100; ++i) hs.push_back(*pool->emplace(i));
    for (std::size_t i = 0; i < 50; ++i) pool->release(hs[i]);  // 50 free slots cached here
    stage.store(1);
    while (stage.load() != 2) std::this_thread::yield();
    // The pool is gone; this thread's magazine for it is an orphan. A new pool must work,
    // and thread exit must neither touch the dead pool nor leak (ASan checks both).
    ConcurrentPool<CountedTracked> next(config(64, 0, 1024));
    const auto h = next.emplace(std::uint64_t{5});
    EXPECT_TRUE(h && value_of(next, *h) == 5u);
  });
  while (stage.load() != 1) std::this_thread::yield();
  pool.reset();
  EXPECT_EQ(Counts::live(), 0) << "the destroyed pool destroyed its 50 live objects";
  stage.store(2);
  worker.join();
  EXPECT_EQ(Counts::live(), 0);
  EXPECT_EQ(Counts::bad_destructions, 0);
}

TEST(ConcurrentPoolThreads, ShortLivedThreadsLeaveNoCachesBehind) {
  ConcurrentPool<int> pool(config(64, 0, 4096));
  for (int i = 0; i < 16; ++i) {
    std::thread([&] {
      const auto h = pool.emplace(i);
      pool.release(*h);
    }).join();
  }
  const auto s = pool.stats();
  EXPECT_EQ(s.thread_caches, 0u);
  EXPECT_EQ(s.emplaces, 16u);
  EXPECT_EQ(s.releases, 16u);
  expect_slots_accounted(s);
}

// --- debug checks -------------------------------------------------------------------------

#if ENGINE_POOL_DEBUG
// Death tests fork; "threadsafe" re-executes the binary instead, which TSan tolerates.
class ConcurrentPoolDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(ConcurrentPoolDeathTest, DoubleReleaseAsserts) {
  EXPECT_DEATH(
      {
        ConcurrentPool<int> pool(config(64, 0, 1024));
        const auto h = pool.emplace(1);
        pool.release(*h);
        pool.release(*h);
      },
      "double release");
}

TEST_F(ConcurrentPoolDeathTest, ForeignHandleAsserts) {
  EXPECT_DEATH(
      {
        ConcurrentPool<int> a(config(64, 0, 1024));
        ConcurrentPool<int> b(config(64, 0, 1024));
        const auto h = a.emplace(1);
        b.emplace(2);
        b.release(*h);
      },
      "foreign handle");
}

TEST_F(ConcurrentPoolDeathTest, TheLoserOfTwoRacingReleasesAsserts) {
  EXPECT_DEATH(
      {
        ConcurrentPool<int> pool(config(64, 0, 1024));
        const auto h = pool.emplace(1);
        std::thread a([&] { pool.release(*h); });
        std::thread b([&] { pool.release(*h); });
        a.join();
        b.join();
      },
      "stale handle");
}
#endif

#if ENGINE_POOL_ASAN
// AddressSanitizer builds poison a released object's storage: a kept pointer is caught.
TEST(ConcurrentPoolAsanDeathTest, UseAfterReleaseIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        ConcurrentPool<int> pool(config(64, 0, 1024));
        const auto h = pool.emplace(1);
        volatile int* kept = pool.get(*h);
        pool.release(*h);
        *kept = 2;
      },
      "AddressSanitizer");
}
#endif

}  // namespace
