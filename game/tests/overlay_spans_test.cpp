// The Frame time section's before/after figures: the newest pooled and heap spans, found by
// the per-frame tag, with exact nearest-rank sim percentiles and their heap / pooled ratio.
// Known times in, known figures out; then a real headless run switched off and on again,
// whose report carries the same spans the model holds.
#include "metrics/alloc_counter.hpp"
#include "metrics/overlay_recorder.hpp"
#include "metrics/report.hpp"
#include "tests/test_support.hpp"

#include <engine/frame_stats.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <vector>

namespace game {
namespace {

void push(engine::FrameStats& frames, double sim_ms, bool heap) {
  frames.begin_frame();
  frames.set_time(engine::FrameTimer::simulation, sim_ms);
  frames.set_tag(heap ? kFrameTagHeap : std::uint8_t{0});
  frames.end_frame();
}

// 1..100 in a shuffled order (37 is coprime with 100), scaled: percentiles must sort.
void push_permutation(engine::FrameStats& frames, double scale, bool heap) {
  for (int i = 0; i < 100; ++i) push(frames, scale * ((i * 37) % 100 + 1), heap);
}

TEST(PoolingSpans, NewestSpanOfEachKindWithExactPercentilesAndRatio) {
  engine::FrameStats frames(400);
  for (int i = 0; i < 100; ++i) push(frames, 50.0, true);  // an older heap span: not the newest
  for (int i = 0; i < 100; ++i) push(frames, 7.0, false);  // an older pooled span
  push_permutation(frames, 0.04, true);                    // frames 200..299: heap
  push_permutation(frames, 0.01, false);                   // frames 300..399: pooled, current
  const PoolingSpans s = pooling_spans(frames);

  ASSERT_TRUE(s.pooled.found);
  EXPECT_EQ(s.pooled.first_frame, 300u);
  EXPECT_EQ(s.pooled.last_frame, 399u);
  EXPECT_EQ(s.pooled.frames, 100u);
  EXPECT_DOUBLE_EQ(s.pooled.sim.p50, 0.50);
  EXPECT_DOUBLE_EQ(s.pooled.sim.p99, 0.99);
  EXPECT_DOUBLE_EQ(s.pooled.sim.max, 1.00);

  ASSERT_TRUE(s.heap.found);
  EXPECT_EQ(s.heap.first_frame, 200u);
  EXPECT_EQ(s.heap.last_frame, 299u);
  EXPECT_DOUBLE_EQ(s.heap.sim.p50, 2.00);
  EXPECT_DOUBLE_EQ(s.heap.sim.p99, 3.96);
  EXPECT_DOUBLE_EQ(s.heap.sim.max, 4.00);

  EXPECT_DOUBLE_EQ(s.ratio.p50, 4.0);
  EXPECT_DOUBLE_EQ(s.ratio.p99, 4.0);
  EXPECT_DOUBLE_EQ(s.ratio.max, 4.0);
}

TEST(PoolingSpans, CurrentHeapSpanCountsAndAOneFrameSpanIsASpan) {
  engine::FrameStats frames(64);
  for (int i = 0; i < 10; ++i) push(frames, 1.0, false);
  push(frames, 3.0, true);                              // frame 10: heap for one frame
  push(frames, 2.0, false);                             // frame 11: pooled for one frame, the newest pooled span
  for (int i = 0; i < 5; ++i) push(frames, 6.0, true);  // frames 12..16: heap, still running
  const PoolingSpans s = pooling_spans(frames);
  EXPECT_EQ(s.pooled.first_frame, 11u);
  EXPECT_EQ(s.pooled.frames, 1u);
  EXPECT_DOUBLE_EQ(s.pooled.sim.max, 2.0);
  EXPECT_EQ(s.heap.first_frame, 12u);
  EXPECT_EQ(s.heap.last_frame, 16u);
  EXPECT_DOUBLE_EQ(s.ratio.p50, 3.0);
}

TEST(PoolingSpans, WithoutAHeapSpanThereIsNoRatio) {
  engine::FrameStats frames(32);
  for (int i = 0; i < 20; ++i) push(frames, 1.0, false);
  const PoolingSpans s = pooling_spans(frames);
  EXPECT_TRUE(s.pooled.found);
  EXPECT_FALSE(s.heap.found);
  EXPECT_DOUBLE_EQ(s.ratio.p50, 0.0);
  EXPECT_DOUBLE_EQ(s.ratio.max, 0.0);
  const PoolingSpans none = pooling_spans(engine::FrameStats(8));
  EXPECT_FALSE(none.pooled.found);
  EXPECT_FALSE(none.heap.found);
}

TEST(PoolingSpans, ASpanOlderThanTheRingIsCutAtItsOldestKeptFrame) {
  engine::FrameStats frames(50);
  for (int i = 0; i < 80; ++i) push(frames, 4.0, true);  // frames 0..79, 40..79 kept
  for (int i = 0; i < 10; ++i) push(frames, 1.0, false);
  const PoolingSpans s = pooling_spans(frames);
  EXPECT_EQ(s.heap.first_frame, 40u);
  EXPECT_EQ(s.heap.frames, 40u);
  EXPECT_DOUBLE_EQ(s.ratio.p50, 4.0);
}

TEST(PoolingSpans, RefreshingAllocatesNothing) {
  engine::FrameStats frames(kOverlayStatsFrames);
  for (std::size_t i = 0; i < kOverlayStatsFrames; ++i)
    push(frames, 1.0 + static_cast<double>(i % 7), (i / 300) % 2 == 1);
  const std::uint64_t before = heap_alloc_count();
  const PoolingSpans s = pooling_spans(frames);
  EXPECT_EQ(heap_alloc_count() - before, 0u);
  EXPECT_TRUE(s.heap.found && s.pooled.found);
}

// A headless run, pooled 200 steps, heap 200, pooled 200 again: the model finds the spans
// on exactly those frames, its window marks the heap rows, and the report carries them.
TEST(PoolingSpans, AHeadlessRunSwitchedOffAndOnReportsBothSpans) {
  Simulation sim(test::repo_scenario("default.json"), 3);
  sim.settings().autofire = true;
  OverlayRecorder recorder;
  FrameSummary summary = run_headless(sim, 200, {}, kDefaultWarmupFrames, &recorder);
  sim.settings().pooling = false;
  summary = run_headless(sim, 200, {}, 0, &recorder);
  sim.settings().pooling = true;
  summary = run_headless(sim, 200, {}, 0, &recorder);
  const OverlayModel m = recorder.model(sim);

  ASSERT_TRUE(m.spans.heap.found);
  EXPECT_EQ(m.spans.heap.first_frame, 200u);
  EXPECT_EQ(m.spans.heap.last_frame, 399u);
  ASSERT_TRUE(m.spans.pooled.found);
  EXPECT_EQ(m.spans.pooled.first_frame, 400u);
  EXPECT_EQ(m.spans.pooled.last_frame, 599u);
  EXPECT_GT(m.spans.heap.sim.max, 0.0);
  EXPECT_DOUBLE_EQ(m.spans.ratio.p50, m.spans.heap.sim.p50 / m.spans.pooled.sim.p50);
  EXPECT_EQ(m.window.heap_frames, 200u);
  for (const FrameRow& r : m.window.rows) EXPECT_EQ(r.heap, r.frame >= 200 && r.frame < 400) << r.frame;

  const nlohmann::json spans = make_report(sim, summary, {"default", true, &m}).at("overlay").at("pooling_spans");
  EXPECT_EQ(spans.at("heap").at("first_frame").get<std::uint64_t>(), 200u);
  EXPECT_EQ(spans.at("heap").at("frames").get<std::size_t>(), 200u);
  EXPECT_DOUBLE_EQ(spans.at("heap").at("sim_ms").at("p99").get<double>(), m.spans.heap.sim.p99);
  EXPECT_DOUBLE_EQ(spans.at("pooled").at("sim_ms").at("p50").get<double>(), m.spans.pooled.sim.p50);
  EXPECT_DOUBLE_EQ(spans.at("heap_over_pooled").at("p50").get<double>(), m.spans.ratio.p50);
}

}  // namespace
}  // namespace game
