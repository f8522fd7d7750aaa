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
  EXPECT_EQ(clock.total_steps(), 3u);
}

TEST(FixedStepClock, ClampsAStallSoItCannotSpiral) {
  // Binary fractions, so the arithmetic is exact: 1/64 s steps, clamp at 4 steps' worth.
  engine::FixedStepClock clock({1.0 / 64, 4.0 / 64});
  EXPECT_EQ(clock.advance(3.0), 4);  // a 3 s stall simulates only the clamped 62.5 ms
  EXPECT_DOUBLE_EQ(clock.dropped_seconds(), 3.0 - 4.0 / 64);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 0.0);
}

TEST(FixedStepClock, NegativeTimeIsIgnored) {
  engine::FixedStepClock clock;
  EXPECT_EQ(clock.advance(-1.0), 0);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 0.0);
}

TEST(FixedStepClock, InterpolationIsTheFractionOfAStepLeft) {
  engine::FixedStepClock clock({1.0 / 64, 1.0});
  EXPECT_EQ(clock.advance(1.0 / 128), 0);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 0.5);
  EXPECT_EQ(clock.advance(1.0 / 256 + 1.0 / 64), 1);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 0.75);
}

TEST(FixedStepClock, PausedDiscardsTimeAndKeepsTheAccumulator) {
  engine::FixedStepClock clock({1.0 / 64, 1.0});
  EXPECT_EQ(clock.advance(1.0 / 128), 0);  // half a step banked
  clock.set_paused(true);
  EXPECT_TRUE(clock.paused());
  EXPECT_EQ(clock.advance(0.5), 0);              // 32 steps' worth of wall time, all discarded
  EXPECT_DOUBLE_EQ(clock.interpolation(), 1.0);  // paused: draw the latest state
  clock.set_paused(false);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 0.5);  // the banked half step is still there
  EXPECT_EQ(clock.advance(1.0 / 128), 1);
  EXPECT_EQ(clock.total_steps(), 1u);
}

TEST(FixedStepClock, SingleStepRunsExactlyOneStepWhilePaused) {
  engine::FixedStepClock clock({1.0 / 64, 1.0});
  clock.set_paused(true);
  clock.request_single_step();
  EXPECT_TRUE(clock.single_step_pending());
  EXPECT_EQ(clock.advance(0.0), 1);  // even with no wall time
  EXPECT_FALSE(clock.single_step_pending());
  EXPECT_EQ(clock.advance(1.0), 0);  // one request, one step
  clock.request_single_step();
  clock.request_single_step();  // requests do not pile up
  EXPECT_EQ(clock.advance(1.0), 1);
  EXPECT_EQ(clock.advance(1.0), 0);
  EXPECT_EQ(clock.total_steps(), 2u);
}

TEST(FixedStepClock, SingleStepIsIgnoredWhileRunning) {
  engine::FixedStepClock clock({1.0 / 64, 1.0});
  clock.request_single_step();
  EXPECT_FALSE(clock.single_step_pending());
  EXPECT_EQ(clock.advance(0.0), 0);
}

TEST(FixedStepClock, UnpausingDropsAPendingSingleStep) {
  engine::FixedStepClock clock({1.0 / 64, 1.0});
  clock.set_paused(true);
  clock.request_single_step();
  clock.toggle_pause();
  EXPECT_FALSE(clock.paused());
  EXPECT_EQ(clock.advance(0.0), 0);
}

TEST(FixedStepClock, LockstepIsOneStepPerAdvanceWhateverTheTime) {
  engine::FixedStepConfig config;
  config.lockstep = true;
  engine::FixedStepClock clock(config);
  EXPECT_EQ(clock.advance(0.0), 1);
  EXPECT_EQ(clock.advance(10.0), 1);
  EXPECT_EQ(clock.advance(-3.0), 1);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 1.0);
  EXPECT_DOUBLE_EQ(clock.dropped_seconds(), 0.0);
  clock.set_paused(true);
  EXPECT_EQ(clock.advance(1.0), 0);  // pause still wins over lockstep
  clock.request_single_step();
  EXPECT_EQ(clock.advance(1.0), 1);
  EXPECT_EQ(clock.total_steps(), 4u);
}

TEST(FixedStepClock, ResetClearsTimeButNotThePause) {
  engine::FixedStepClock clock({1.0 / 64, 4.0 / 64});
  EXPECT_EQ(clock.advance(1.0), 4);
  clock.set_paused(true);
  clock.reset();
  EXPECT_TRUE(clock.paused());
  EXPECT_EQ(clock.total_steps(), 0u);
  EXPECT_DOUBLE_EQ(clock.dropped_seconds(), 0.0);
  clock.set_paused(false);
  EXPECT_DOUBLE_EQ(clock.interpolation(), 0.0);
}

TEST(FixedStepClock, NonPositiveStepFallsBackToTheDefault) {
  engine::FixedStepClock clock({0.0, 0.25});  // would loop forever in advance()
  EXPECT_DOUBLE_EQ(clock.config().step_seconds, 1.0 / 60.0);
  EXPECT_EQ(clock.advance(1.0 / 60.0 + 1e-9), 1);
}

}  // namespace
