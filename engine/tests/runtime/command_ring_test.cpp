#include <engine/audio/command_ring.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace {

TEST(CommandRing, KeepsOrderRefusesWhenFullAndWrapsAround) {
  engine::CommandRing<int> ring(3);  // rounded up to 4
  EXPECT_EQ(ring.capacity(), 4u);
  int out = 0;
  EXPECT_FALSE(ring.pop(out));
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(ring.push(round * 10 + i));
    EXPECT_FALSE(ring.push(99));
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(ring.pop(out));
      EXPECT_EQ(out, round * 10 + i);
    }
    EXPECT_FALSE(ring.pop(out));
  }
}

TEST(CommandRing, OneProducerOneConsumerSeeEveryValueOnceInOrder) {
  engine::CommandRing<long> ring(64);
  constexpr long kCount = 200000;
  std::thread producer([&] {
    for (long i = 0; i < kCount;) {
      if (ring.push(i)) ++i;
    }
  });
  long expected = 0, value = 0;
  while (expected < kCount) {
    if (ring.pop(value)) {
      ASSERT_EQ(value, expected);
      ++expected;
    }
  }
  producer.join();
  EXPECT_FALSE(ring.pop(value));
}

}  // namespace
