// ConcurrentPool<T> for T smaller than AddressSanitizer's 8-byte shadow granule:
// neighbouring slots must not share a shadow byte, or two threads poisoning their own
// slots race on it (false use-after-poison, ASan CHECK failures), and a released slot beside a
// live one stays readable. Meant for the asan and tsan presets; in release it is plain churn.
#include <engine/pool/concurrent_pool.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>

namespace {

using engine::ConcurrentPool;
using engine::ConcurrentPoolConfig;
using engine::PoolHandle;

#if defined(__SANITIZE_THREAD__)
constexpr int kRounds = 200000;  // TSan is ~10x slower per operation
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr int kRounds = 200000;
#else
constexpr int kRounds = 2000000;
#endif
#else
constexpr int kRounds = 2000000;
#endif

template <class T>
void churn_neighbours() {
  ConcurrentPool<T> pool(ConcurrentPoolConfig{64, 64, 1024});
  const PoolHandle first = *pool.emplace(T{1});
  const PoolHandle second = *pool.emplace(T{2});
  ASSERT_EQ(second.index, first.index + 1) << "the test needs neighbouring slots";
  std::atomic<int> wrong{0};
  const auto work = [&](PoolHandle h, T value) {
    for (int i = 0; i < kRounds; ++i) {
      const T* object = pool.get(h);
      if (object == nullptr || *object != value) wrong.fetch_add(1, std::memory_order_relaxed);
      pool.release(h);
      h = *pool.emplace(value);  // this thread's magazine hands the same slot back
    }
    pool.release(h);
  };
  std::thread a(work, first, T{1});
  std::thread b(work, second, T{2});
  a.join();
  b.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(pool.size(), 0u);
}

TEST(ConcurrentPoolSmallSlots, NeighbouringIntSlotsChurnedByTwoThreads) { churn_neighbours<int>(); }
TEST(ConcurrentPoolSmallSlots, NeighbouringByteSlotsChurnedByTwoThreads) { churn_neighbours<std::uint8_t>(); }

#if ENGINE_POOL_ASAN
TEST(ConcurrentPoolSmallSlots, ReleasedIntBesideALiveOneIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ConcurrentPool<int> pool(ConcurrentPoolConfig{64, 64, 1024});
  const PoolHandle released = *pool.emplace(1);
  const PoolHandle live = *pool.emplace(2);
  ASSERT_EQ(live.index, released.index + 1);
  volatile int* kept = pool.get(released);
  pool.release(released);
  EXPECT_EQ(*pool.get(live), 2);
  EXPECT_DEATH(static_cast<void>(*kept), "use-after-poison");
}
#endif

}  // namespace
