// The per-frame series behind `poolshot --frame-csv FILE` (what scripts/bench charts): frames
// come out oldest first with their own times, allocations and growth flags, also after the
// ring has wrapped; the CSV holds exactly those rows; a headless run of the real simulation
// gives one row per frame whose growth flags match the frames the growth log names; and
// --pace rests after a step.
#include "metrics/frame_log.hpp"
#include "sim/simulation.hpp"
#include "app/options.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

namespace game {
namespace {

TEST(FrameSeries, OldestFirstWithEveryField) {
  FrameLog log(8, 0);
  for (int f = 1; f <= 5; ++f) {
    log.record(f * 1.5, f * 0.25, static_cast<std::uint64_t>(f * 10), f == 3 ? kFrameTagStorageGrew : 0);
  }
  const FrameSummary s = log.summary();
  ASSERT_EQ(s.series.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    const FrameRecord& r = s.series[i];
    const auto f = static_cast<double>(i + 1);
    EXPECT_EQ(r.frame, i + 1);
    EXPECT_FLOAT_EQ(r.sim_ms, static_cast<float>(f * 1.5));
    EXPECT_FLOAT_EQ(r.render_ms, static_cast<float>(f * 0.25));
    EXPECT_EQ(r.heap_allocs, (i + 1) * 10);
    EXPECT_EQ(r.storage_grew, i + 1 == 3);
  }
}

TEST(FrameSeries, KeepsTheNewestFramesInOrderAfterTheRingWraps) {
  FrameLog log(4, 0);
  for (int f = 1; f <= 10; ++f) log.record(f, 0, 0, 0);  // ring keeps frames 7..10
  const FrameSummary s = log.summary();
  ASSERT_EQ(s.series.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(s.series[i].frame, 7 + i);
    EXPECT_FLOAT_EQ(s.series[i].sim_ms, static_cast<float>(7 + i));
  }
  EXPECT_EQ(s.sim_ms.max, 10.0);
}

TEST(FrameSeries, AllocationCountSaturatesInsteadOfWrapping) {
  FrameLog log(2, 0);
  log.record(1, 0, (std::uint64_t{1} << 32) + 5, 0);
  EXPECT_EQ(log.summary().series.at(0).heap_allocs, 0xFFFFFFFFu);
}

TEST(FrameKinds, AStepsTagSaysHeapSwitchGrowthAndRebuild) {
  EXPECT_EQ(step_frame_tag(true, true, false, false), 0);
  EXPECT_EQ(step_frame_tag(false, false, false, false), kFrameTagHeap);
  EXPECT_EQ(step_frame_tag(true, false, false, false), kFrameTagHeap | kFrameTagSwitched);  // objects leave the pool
  EXPECT_EQ(step_frame_tag(false, true, false, true), kFrameTagHeap | kFrameTagSwitched | kFrameTagPoolRebuilt);
  EXPECT_EQ(step_frame_tag(true, true, true, false), kFrameTagStorageGrew);
  EXPECT_EQ(step_frame_tag(true, true, false, true), kFrameTagPoolRebuilt);  // storage changed
}

TEST(FrameKinds, AStepsOwnStatsGiveItsTag) {
  // The step loop and the overlay's recorder both tag a step from its SimStats alone.
  Scenario scenario = test::repo_scenario("default.json");
  test::use_tiny_pools(scenario, 16);  // held fire grows them at once
  Simulation sim(scenario, 1);
  const Input fire = test::fire_up(true);
  bool grew = false;
  for (int f = 0; f < 120; ++f) {
    sim.step(fire);
    EXPECT_EQ((step_frame_tag(sim.stats()) & kFrameTagStorageGrew) != 0, sim.stats().grew);
    grew = grew || sim.stats().grew;
  }
  EXPECT_TRUE(grew);
  // The pools top their room up on calm steps (ObjectStore::make_room), so a step may still
  // grow; the next one that grows nothing is a steady step.
  sim.step(fire);
  for (int f = 0; f < 60 && sim.stats().grew; ++f) sim.step(fire);
  ASSERT_FALSE(sim.stats().grew) << "60 steps in a row grew a pool";
  EXPECT_EQ(step_frame_tag(sim.stats()), 0) << "pooled, grown already: a steady step";
  sim.settings().pooling = false;  // every pool rebuilt into its heap layout
  sim.step(fire);
  EXPECT_EQ(step_frame_tag(sim.stats()) & ~kFrameTagStorageGrew,
            kFrameTagHeap | kFrameTagSwitched | kFrameTagPoolRebuilt);
  sim.step(fire);
  EXPECT_EQ(step_frame_tag(sim.stats()) & ~kFrameTagStorageGrew, kFrameTagHeap);
  sim.settings().pooling = true;
  sim.step(fire);
  EXPECT_EQ(step_frame_tag(sim.stats()) & ~kFrameTagStorageGrew,
            kFrameTagHeap | kFrameTagSwitched | kFrameTagPoolRebuilt);
  EXPECT_TRUE(sim.stats().rebuilt);
}

TEST(FrameKinds, SteadyIsPooledWithoutGrowthOrRebuildAfterTheWarmUp) {
  const std::uint8_t none = 0;
  EXPECT_EQ(frame_kind(2, 2, none), FrameKind::warmup);
  EXPECT_EQ(frame_kind(2, 2, kFrameTagHeap), FrameKind::warmup);
  EXPECT_EQ(frame_kind(3, 2, none), FrameKind::steady);
  EXPECT_EQ(frame_kind(3, 2, kFrameTagStorageGrew), FrameKind::growth);
  EXPECT_EQ(frame_kind(3, 2, kFrameTagPoolRebuilt), FrameKind::growth);
  EXPECT_EQ(frame_kind(3, 2, kFrameTagHeap), FrameKind::heap);
  EXPECT_EQ(frame_kind(3, 2, kFrameTagHeap | kFrameTagStorageGrew), FrameKind::heap);  // a pointer array grew
  EXPECT_EQ(frame_kind(3, 2, step_frame_tag(false, true, false, true)), FrameKind::pooling_switch);
  EXPECT_STREQ(frame_kind_name(FrameKind::pooling_switch), "switch");
}

// The bug this replaced: heap frames after the last growth counted as steady, so a run with a
// heap span reported thousands of allocations per "steady" frame.
TEST(FrameKinds, EachKindHasItsOwnWorstFrame) {
  FrameLog log(16, 2);
  const std::uint8_t heap = kFrameTagHeap, grew = kFrameTagStorageGrew;
  const std::uint8_t off = step_frame_tag(true, false, false, false), on = step_frame_tag(false, true, false, true);
  const std::pair<std::uint64_t, std::uint8_t> frames[] = {{500, 0},     {400, grew},  // warm-up
                                                           {0, 0},       {11, grew},          {0, 0},   {30000, off},
                                                           {9000, heap}, {9500, heap | grew}, {28, on}, {0, 0}};
  for (const auto& [allocs, tag] : frames) log.record(1, 0, allocs, tag);
  const FrameSummary s = log.summary();
  const auto expect = [&](FrameKind kind, std::uint64_t count, std::int64_t worst) {
    EXPECT_EQ(s.of(kind).frames, count) << frame_kind_name(kind);
    EXPECT_EQ(s.of(kind).per_frame_max, worst) << frame_kind_name(kind);
  };
  expect(FrameKind::warmup, 2, 500);
  expect(FrameKind::steady, 3, 0);
  expect(FrameKind::growth, 1, 11);
  expect(FrameKind::heap, 2, 9500);
  expect(FrameKind::pooling_switch, 2, 30000);
  EXPECT_EQ(s.heap_allocs_per_frame_max, 30000u);
  EXPECT_EQ(s.last_growth_frame, 8u);
  FrameLog empty(4, 0);
  EXPECT_EQ(empty.summary().of(FrameKind::steady).per_frame_max, -1) << "no steady frame: -1, not 0";
}

TEST(FrameSeries, CsvHoldsOneRowPerFrame) {
  Settings packed;
  packed.storage = engine::StorageMode::packed;
  packed.walk = WalkMode::swap_pop;
  const FrameSwitch both = FrameSwitch::of(switch_bit(SwitchKind::storage) | switch_bit(SwitchKind::walk), packed);
  const std::vector<FrameRecord> series = {{1, 2.5f, 0.125f, 7, false, {}}, {2, 30.0f, 0.0f, 0, true, both}};
  const std::string path = ::testing::TempDir() + "frame_series_test.csv";
  std::string error;
  ASSERT_TRUE(write_frame_csv(path, series, error)) << error;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "frame,sim_ms,render_ms,heap_allocs,storage_grew,switch\n"
            "1,2.5000,0.1250,7,0,\n"
            "2,30.0000,0.0000,0,1,packed|swap-pop list\n");
  std::remove(path.c_str());
}

// A switch recorded with its frame comes back on that frame of the series, named as the CSV
// names it, also after the ring has wrapped past older ones; two steps of one frame merge.
TEST(FrameSeries, SwitchesComeBackOnTheirFrames) {
  FrameLog log(4, 0);
  Settings s;
  s.pooling = false;
  for (int f = 1; f <= 10; ++f) {
    FrameSwitch sw;
    if (f == 2 || f == 8) sw = FrameSwitch::of(switch_bit(SwitchKind::pooling), s);
    if (f == 9) {
      Settings walk;
      walk.walk = WalkMode::bitmap;
      sw = FrameSwitch::of(switch_bit(SwitchKind::walk), walk)
               .then(FrameSwitch::of(switch_bit(SwitchKind::pooling), walk));  // two steps in one frame
    }
    log.record(1, 0, 0, false, sw);
  }
  const FrameSummary summary = log.summary();  // frames 7..10
  ASSERT_EQ(summary.series.size(), 4u);
  EXPECT_FALSE(summary.series[0].switched.any());
  EXPECT_EQ(switch_names(summary.series[1].switched), "pooling off");
  EXPECT_EQ(switch_names(summary.series[2].switched), "pooling on|bitmap");
  EXPECT_FALSE(summary.series[3].switched.any());
}

TEST(FrameSeries, CsvToAnUnwritablePathFailsWithAReason) {
  std::string error;
  EXPECT_FALSE(write_frame_csv("/nonexistent-dir/frames.csv", {}, error));
  EXPECT_FALSE(error.empty());
}

TEST(FrameSeries, HeadlessRunFlagsExactlyTheFramesThatGrew) {
  Scenario scenario = test::repo_scenario("default.json");
  test::use_tiny_pools(scenario, 16);  // so the run grows several times
  Simulation sim(scenario, 3);
  sim.settings().autofire = true;
  constexpr std::uint64_t kFrames = 600;
  const FrameSummary s = run_headless(sim, kFrames);
  ASSERT_EQ(s.series.size(), kFrames);
  std::set<std::uint64_t> grew_in_log;
  for (const GrowthRecord& g : sim.growth_log()) grew_in_log.insert(g.frame);
  std::set<std::uint64_t> grew_in_series;
  std::uint64_t allocs = 0;
  for (std::size_t i = 0; i < s.series.size(); ++i) {
    EXPECT_EQ(s.series[i].frame, i + 1);
    EXPECT_GE(s.series[i].sim_ms, 0.0f);
    if (s.series[i].storage_grew) grew_in_series.insert(s.series[i].frame);
    allocs += s.series[i].heap_allocs;
  }
  ASSERT_FALSE(grew_in_log.empty()) << "pools of 16 slots should grow";
  EXPECT_EQ(grew_in_series, grew_in_log);
  EXPECT_EQ(allocs, s.heap_allocs_total);
}

TEST(FrameSeries, TheFlagParses) {
  const char* argv[] = {"poolshot", "--headless", "--frame-csv", "f.csv"};
  const ParsedOptions p = parse_options(4, argv);
  ASSERT_TRUE(p.options.has_value()) << p.error;
  EXPECT_EQ(p.options->frame_csv, "f.csv");
  const char* empty[] = {"poolshot", "--frame-csv="};
  EXPECT_EQ(parse_options(2, empty).error, "--frame-csv: the file name is empty");
  const char* pace[] = {"poolshot", "--headless", "--pace"};
  const ParsedOptions paced = parse_options(3, pace);
  ASSERT_TRUE(paced.options.has_value()) << paced.error;
  EXPECT_TRUE(paced.options->pace);
  EXPECT_FALSE(p.options->pace);
}

// --pace: a step of 9 ms is followed by a rest of (at least, sleeps never end early) 1 ms.
TEST(FrameSeries, PacingRestsANinthOfTheStep) {
  using clock = std::chrono::steady_clock;
  set_pacing(true);
  const auto start = clock::now();
  pace_after_step(9.0);
  const double rested_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
  set_pacing(false);
  EXPECT_GE(rested_ms, 1.0);
}

}  // namespace
}  // namespace game
