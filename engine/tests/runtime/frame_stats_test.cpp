#include <engine/frame_stats.hpp>

#include <gtest/gtest.h>

#include <string>

#include "counting_new.hpp"

// Every operator new in this executable is counted (counting_new.hpp), to prove recording never allocates.

namespace {

using engine::FrameStats;
using engine::FrameTimer;

void push_frame(FrameStats& stats, double sim, double render, double frame) {
  stats.begin_frame();
  stats.set_time(FrameTimer::simulation, sim);
  stats.set_time(FrameTimer::render, render);
  stats.set_time(FrameTimer::frame, frame);
  stats.end_frame();
}

TEST(FrameStats, PercentilesOfOneToHundredAreExact) {
  FrameStats stats(100);
  // Shuffled order: the summary must sort, not trust arrival order.
  for (int i = 0; i < 100; ++i) {
    const int v = (i * 37) % 100 + 1;  // 37 is coprime with 100: a permutation of 1..100
    push_frame(stats, v, 2.0 * v, 0.5);
  }
  const engine::TimingSummary sim = stats.summary(FrameTimer::simulation);
  EXPECT_EQ(sim.samples, 100u);
  EXPECT_DOUBLE_EQ(sim.p50_ms, 50.0);
  EXPECT_DOUBLE_EQ(sim.p99_ms, 99.0);
  EXPECT_DOUBLE_EQ(sim.max_ms, 100.0);
  const engine::TimingSummary render = stats.summary(FrameTimer::render);
  EXPECT_DOUBLE_EQ(render.p50_ms, 100.0);
  EXPECT_DOUBLE_EQ(render.p99_ms, 198.0);
  EXPECT_DOUBLE_EQ(render.max_ms, 200.0);
  EXPECT_DOUBLE_EQ(stats.summary(FrameTimer::frame).max_ms, 0.5);
}

TEST(FrameStats, OneHitchShowsInMaxAndP99NotSmearedAway) {
  FrameStats stats(200);
  for (int i = 0; i < 199; ++i) push_frame(stats, 1.0, 1.0, 16.0);
  push_frame(stats, 1.0, 1.0, 40.0);  // a single 40 ms frame
  const engine::TimingSummary s = stats.summary(FrameTimer::frame);
  EXPECT_DOUBLE_EQ(s.p50_ms, 16.0);
  EXPECT_DOUBLE_EQ(s.p99_ms, 16.0);  // 1 of 200 is above the 99th percentile
  EXPECT_DOUBLE_EQ(s.max_ms, 40.0);
  push_frame(stats, 1.0, 1.0, 40.0);  // 2 of 200 slow: exactly 1%, still at or below p99 = 16
  EXPECT_DOUBLE_EQ(stats.summary(FrameTimer::frame).p99_ms, 16.0);
  push_frame(stats, 1.0, 1.0, 40.0);  // 3 of 200: more than 1% are slow, p99 shows it
  EXPECT_DOUBLE_EQ(stats.summary(FrameTimer::frame).p99_ms, 40.0);
}

TEST(FrameStats, NearestRankPercentileDefinition) {
  const double v[] = {10, 20, 30, 40};
  EXPECT_DOUBLE_EQ(engine::nearest_rank_percentile(v, 4, 50.0), 20.0);
  EXPECT_DOUBLE_EQ(engine::nearest_rank_percentile(v, 4, 51.0), 30.0);
  EXPECT_DOUBLE_EQ(engine::nearest_rank_percentile(v, 4, 99.0), 40.0);
  EXPECT_DOUBLE_EQ(engine::nearest_rank_percentile(v, 4, 100.0), 40.0);
  EXPECT_DOUBLE_EQ(engine::nearest_rank_percentile(v, 4, 0.0), 10.0);
  EXPECT_DOUBLE_EQ(engine::nearest_rank_percentile(v, 0, 50.0), 0.0);
  EXPECT_DOUBLE_EQ(engine::nearest_rank_percentile(v, 1, 99.0), 10.0);
}

TEST(FrameStats, EmptyWindowSummarisesToZero) {
  FrameStats stats(10);
  const engine::TimingSummary s = stats.summary(FrameTimer::render);
  EXPECT_EQ(s.samples, 0u);
  EXPECT_DOUBLE_EQ(s.max_ms, 0.0);
  EXPECT_EQ(stats.latest(), nullptr);
}

TEST(FrameStats, RingWrapsAndKeepsOnlyTheLastWindow) {
  FrameStats stats(10);
  for (int i = 0; i < 25; ++i) push_frame(stats, i, 0, 0);  // frames 0..24, sim time = index
  EXPECT_EQ(stats.size(), 10u);
  EXPECT_EQ(stats.window(), 10u);
  EXPECT_EQ(stats.sample(0).frame, 15u);  // oldest kept
  EXPECT_EQ(stats.sample(9).frame, 24u);
  ASSERT_NE(stats.latest(), nullptr);
  EXPECT_EQ(stats.latest()->frame, 24u);
  const engine::TimingSummary s = stats.summary(FrameTimer::simulation);
  EXPECT_DOUBLE_EQ(s.max_ms, 24.0);
  EXPECT_DOUBLE_EQ(s.p50_ms, 19.0);  // 15..24: rank 5 is 19
  float series[16] = {};
  ASSERT_EQ(stats.copy_series(FrameTimer::simulation, series, 16), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_FLOAT_EQ(series[i], static_cast<float>(15 + i));
  float short_series[3] = {};  // shorter than the window: the newest three
  ASSERT_EQ(stats.copy_series(FrameTimer::simulation, short_series, 3), 3u);
  EXPECT_FLOAT_EQ(short_series[0], 22.0f);
  EXPECT_FLOAT_EQ(short_series[2], 24.0f);
}

TEST(FrameStats, TimesAccumulateAcrossStepsAndCountersAreKept) {
  FrameStats stats(4);
  stats.begin_frame();
  stats.add_time(FrameTimer::simulation, 1.5);
  stats.add_time(FrameTimer::simulation, 2.5);  // two fixed steps in one frame
  stats.add_sim_steps(2);
  stats.set_draw_stats(3, 10000);
  stats.set_allocations(42);
  stats.set_tag(7);
  stats.end_frame();
  ASSERT_NE(stats.latest(), nullptr);
  EXPECT_DOUBLE_EQ(stats.latest()->ms[0], 4.0);
  EXPECT_EQ(stats.latest()->counters.sim_steps, 2u);
  EXPECT_EQ(stats.latest()->counters.draw_calls, 3u);
  EXPECT_EQ(stats.latest()->counters.sprites, 10000u);
  EXPECT_EQ(stats.latest()->counters.allocations, 42u);
  EXPECT_EQ(stats.latest()->counters.tag, 7u);  // the game's code, kept as given
  stats.begin_frame();                          // a new frame starts from zero
  EXPECT_DOUBLE_EQ(stats.open_frame().ms[0], 0.0);
  EXPECT_EQ(stats.open_frame().counters.allocations, 0u);
  EXPECT_EQ(stats.open_frame().counters.tag, 0u);
}

TEST(FrameStats, EventsCarryTheFrameTheyHappenedOn) {
  FrameStats stats(8, 4);
  for (int frame = 0; frame < 6; ++frame) {
    stats.begin_frame();
    if (frame == 2) stats.record_event(7, "bullets grew", 128.0);
    if (frame == 4) stats.record_event(8, "sparks grew", 4096.0);
    stats.end_frame();
  }
  ASSERT_EQ(stats.event_count(), 2u);
  EXPECT_EQ(stats.event(0).frame, 2u);
  EXPECT_EQ(stats.event(0).kind, 7u);
  EXPECT_STREQ(stats.event(0).label, "bullets grew");
  EXPECT_DOUBLE_EQ(stats.event(0).value, 128.0);
  EXPECT_EQ(stats.event(1).frame, 4u);
  EXPECT_STREQ(stats.event(1).label, "sparks grew");
}

TEST(FrameStats, EventRingOverwritesTheOldestAndCountsIt) {
  FrameStats stats(8, 3);
  for (int i = 0; i < 5; ++i) {
    stats.begin_frame();
    stats.record_event(static_cast<std::uint32_t>(i), "e", i);
    stats.end_frame();
  }
  EXPECT_EQ(stats.event_count(), 3u);
  EXPECT_EQ(stats.events_recorded(), 5u);
  EXPECT_EQ(stats.events_overwritten(), 2u);
  EXPECT_EQ(stats.event(0).kind, 2u);
  EXPECT_EQ(stats.event(0).frame, 2u);
  EXPECT_EQ(stats.event(2).kind, 4u);
}

TEST(FrameStats, LongLabelsAreTruncatedNotOverflowed) {
  FrameStats stats(2, 2);
  const std::string long_label(100, 'x');
  stats.record_event(1, long_label, 0.0);
  EXPECT_EQ(std::string(stats.event(0).label), std::string(engine::FrameEvent::label_capacity, 'x'));
}

TEST(FrameStats, RecordingAndSummarisingNeverAllocate) {
  FrameStats stats(600, 64);
  const long before = counting_new::allocation_count();
  for (int i = 0; i < 2000; ++i) {
    stats.begin_frame();
    stats.add_time(FrameTimer::simulation, i * 0.01);
    stats.set_time(FrameTimer::render, 1.0);
    stats.set_time(FrameTimer::frame, 16.0);
    stats.set_draw_stats(2, 100);
    stats.set_allocations(static_cast<std::uint64_t>(i));
    if (i % 7 == 0) stats.record_event(1, "pool grew", i);
    stats.end_frame();
    const engine::TimingSummary s = stats.summary(FrameTimer::simulation);
    EXPECT_GT(s.samples, 0u);
    EXPECT_GT(stats.cpu_summary(stats.size() / 2, 300).samples, 0u);
  }
  float series[600];
  EXPECT_EQ(stats.copy_series(FrameTimer::frame, series, 600), 600u);
  EXPECT_EQ(counting_new::allocation_count() - before, 0);
}

TEST(FrameStats, SetWindowResizesAndClears) {
  FrameStats stats(4);
  for (int i = 0; i < 4; ++i) push_frame(stats, 1, 1, 1);
  stats.set_window(32);
  EXPECT_EQ(stats.window(), 32u);
  EXPECT_EQ(stats.size(), 0u);
  stats.set_window(0);  // clamped: a window holds at least one frame
  EXPECT_EQ(stats.window(), 1u);
  push_frame(stats, 3, 0, 0);
  push_frame(stats, 5, 0, 0);
  EXPECT_DOUBLE_EQ(stats.summary(FrameTimer::simulation).max_ms, 5.0);
  EXPECT_EQ(stats.size(), 1u);
}

// The game's views (the overlay's window and spans, FrameLog's total) summarise a range of
// the ring, by age, and simulation + render per frame.
TEST(FrameStats, RangeSummariesCoverExactlyTheirFrames) {
  FrameStats stats(16);
  for (int i = 1; i <= 10; ++i) push_frame(stats, i, 0.5, 20);
  const engine::TimingSummary middle = stats.summary(FrameTimer::simulation, 2, 3);  // frames 3, 4, 5
  EXPECT_EQ(middle.samples, 3u);
  EXPECT_DOUBLE_EQ(middle.p50_ms, 4.0);
  EXPECT_DOUBLE_EQ(middle.max_ms, 5.0);
  EXPECT_DOUBLE_EQ(stats.cpu_summary().max_ms, 10.5);
  EXPECT_DOUBLE_EQ(stats.cpu_summary(0, 1).p50_ms, 1.5);
  EXPECT_EQ(stats.summary(FrameTimer::simulation, 8, 100).samples, 2u) << "clamped to what is there";
  EXPECT_EQ(stats.summary(FrameTimer::simulation, 20, 5).samples, 0u);
}

TEST(FrameStats, RangesOfAWrappedRingStartAtTheOldestFrame) {
  FrameStats stats(4);
  for (int i = 1; i <= 6; ++i) push_frame(stats, i, 0, 0);  // keeps 3, 4, 5, 6
  EXPECT_DOUBLE_EQ(stats.sample(0).ms[0], 3.0);
  const engine::TimingSummary s = stats.summary(FrameTimer::simulation, 1, 2);  // 4, 5
  EXPECT_DOUBLE_EQ(s.p50_ms, 4.0);
  EXPECT_DOUBLE_EQ(s.max_ms, 5.0);
}

TEST(FrameStats, SummarizeTimesIsTheNearestRankRule) {
  double values[] = {30, 10, 20, 40};
  const engine::TimingSummary s = engine::summarize_times(values, 4);
  EXPECT_DOUBLE_EQ(s.p50_ms, 20.0);
  EXPECT_DOUBLE_EQ(s.p99_ms, 40.0);
  EXPECT_DOUBLE_EQ(s.max_ms, 40.0);
  EXPECT_DOUBLE_EQ(values[0], 10.0) << "sorted in place";
  EXPECT_EQ(engine::summarize_times(nullptr, 0).samples, 0u);
}

}  // namespace
