#include <engine/fixed_step.hpp>

#include <gtest/gtest.h>

namespace {

TEST(FixedStepClock, AccumulatesPartialFramesIntoWholeSteps) {
  engine::FixedStepClock clock({0.01, 0.25});
  EXPECT_EQ(clock.advance(0.004), 0);
  EXPECT_NEAR(clock.interpolation(), 0.4, 1e-9);
  EXPECT_EQ(clock.advance(0.007), 1);  // 0.011 in total: one step, 0.001 left
  EXPECT_NEAR(clock.interpolation(), 0.1, 1e-9);
  EXPECT_EQ(clock.advance(0.025), 2);
}

TEST(FixedStepClock, ClampsAStallSoItCannotSpiral) {
  // Binary fractions, so the arithmetic is exact: 1/64 s steps, clamp at 4 steps' worth.
  engine::FixedStepClock clock({1.0 / 64, 4.0 / 64});
  EXPECT_EQ(clock.advance(3.0), 4);  // a 3 s stall simulates only the clamped 62.5 ms
  EXPECT_DOUBLE_EQ(clock.dropped_seconds(), 3.0 - 4.0 / 64);
}

TEST(FixedStepClock, NegativeTimeIsIgnored) {
  engine::FixedStepClock clock;
  EXPECT_EQ(clock.advance(-1.0), 0);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 0.0);
}

}  // namespace
