// The matched-load comparison (metrics/matched_load.hpp) on synthetic frames, the /sys cache
// parser against a temporary tree (metrics/machine_caches.hpp), and the lines the panel shows.
#include "app/headless_run.hpp"
#include "metrics/compare_result.hpp"
#include "metrics/frame_log.hpp"
#include "metrics/machine_caches.hpp"
#include "metrics/matched_load.hpp"
#include "metrics/overlay_model.hpp"
#include "metrics/overlay_recorder.hpp"
#include "metrics/report.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace game {
namespace {

void add(engine::FrameStats& f, double sim_ms, std::uint32_t live, std::uint8_t tag, std::size_t count = 1) {
  for (std::size_t i = 0; i < count; ++i) {
    f.begin_frame();
    f.set_time(engine::FrameTimer::simulation, sim_ms);
    f.set_live_objects(live);
    f.set_tag(tag);
    f.end_frame();
  }
}

// A hold-fire session: idle, a ramp, a pooled plateau, a heap span, a pooled span after it.
TEST(MatchedLoad, IdleAndRampFramesNeverEnterThePooledSide) {
  engine::FrameStats f(2400, 1);
  add(f, 0.01, 40, 0, 200);                                                       // idle
  for (std::uint32_t i = 0; i < 300; ++i) add(f, 0.01 + i * 0.003, i * 1000, 0);  // ramp 0..299k
  add(f, 0.5, 300000, kFrameTagStorageGrew, 5);                                   // growth: labelled, not pooled
  add(f, 1.0, 300000, 0, 100);                                                    // pooled plateau
  add(f, 50.0, 300000, kFrameTagHeap | kFrameTagSwitched);                        // switch off
  add(f, 3.0, 305000, kFrameTagHeap, 200);                                        // heap span
  add(f, 40.0, 300000, kFrameTagPoolRebuilt | kFrameTagSwitched);                 // switch on, rebuilt
  add(f, 0.2, 300000, kFrameTagPoolRebuilt, 3);                                   // rebuilt: not pooled
  add(f, 1.0, 298000, 0, 100);                                                    // pooled after
  MatchedLoadScratch scratch;
  const MatchedLoad m = matched_load(f, scratch);
  ASSERT_TRUE(m.has_ratio);
  EXPECT_EQ(m.live_objects, 305000u);
  EXPECT_EQ(m.heap_frames, 200u);
  // Plateau and after, plus the ramp's last frames within 10 % of 305k (275k..299k): 25 frames.
  EXPECT_EQ(m.pooled_frames, 225u);
  EXPECT_DOUBLE_EQ(m.heap_sim_p50, 3.0);
  EXPECT_DOUBLE_EQ(m.pooled_sim_p50, 1.0);
  EXPECT_DOUBLE_EQ(m.ratio, 3.0);
  // The newest-span figure this replaces compared 3.0 with a span's p50 the ramp dragged down.
  char line[128];
  matched_load_line(m, line, sizeof line);
  EXPECT_STREQ(line, "heap 3.0x slower at 305k objects (matched load)");
  const nlohmann::json j = matched_load_json(m);
  EXPECT_DOUBLE_EQ(j.at("ratio").get<double>(), 3.0);
  EXPECT_EQ(j.at("pooled_frames"), 225);
}

TEST(MatchedLoad, NotEnoughLoadHasNoRatio) {
  MatchedLoadScratch scratch;
  engine::FrameStats idle(2400, 1);  // 40 objects: the default scenario with no input
  add(idle, 0.01, 40, 0, 300);
  add(idle, 0.02, 40, kFrameTagHeap, 300);
  add(idle, 0.01, 40, 0, 300);
  MatchedLoad m = matched_load(idle, scratch);
  EXPECT_FALSE(m.has_ratio);
  EXPECT_EQ(m.live_objects, 40u);
  EXPECT_EQ(m.heap_frames, 300u);
  EXPECT_EQ(m.pooled_frames, 600u);
  char line[128];
  matched_load_line(m, line, sizeof line);
  EXPECT_STREQ(line, "hold fire to compare");
  EXPECT_TRUE(matched_load_json(m).at("ratio").is_null());

  engine::FrameStats few(2400, 1);  // a load, but too few heap frames
  add(few, 1.0, 300000, 0, 100);
  add(few, 3.0, 300000, kFrameTagHeap, 29);
  m = matched_load(few, scratch);
  EXPECT_FALSE(m.has_ratio);
  EXPECT_EQ(m.heap_frames, 29u);

  engine::FrameStats none(2400, 1);  // no heap frame at all
  add(none, 1.0, 300000, 0, 100);
  m = matched_load(none, scratch);
  EXPECT_FALSE(m.has_ratio);
  EXPECT_EQ(m.heap_frames, 0u);
  EXPECT_EQ(m.pooled_frames, 0u);
}

TEST(MatchedLoad, TwoSeriesAsTheCompareRunsThem) {
  engine::FrameStats heap(600, 1), pooled(600, 1);
  for (std::uint32_t i = 0; i < 600; ++i) {  // the same game: the same live counts, step by step
    const std::uint32_t live = i < 300 ? i * 100 : 30000;
    add(heap, i < 300 ? 0.1 : 2.0, live, kFrameTagHeap | (i == 10 ? kFrameTagStorageGrew : 0));
    add(pooled, i < 300 ? 0.05 : 0.5, live, i == 20 ? kFrameTagStorageGrew : 0);
  }
  MatchedLoadScratch scratch;
  const MatchedLoad m = matched_load(heap, pooled, scratch);
  ASSERT_TRUE(m.has_ratio);
  EXPECT_GE(m.live_objects, 29900u);  // the median of 599 heap frames (frame 10 grew: left out)
  EXPECT_LE(m.live_objects, 30000u);
  EXPECT_DOUBLE_EQ(m.ratio, 4.0);
  EXPECT_EQ(m.heap_frames, 330u);  // the plateau and the ramp's last 30 frames (27000..29900)
  EXPECT_EQ(m.pooled_frames, 330u);

  engine::FrameStats small_heap(600, 1), small_pooled(600, 1);  // 40 objects: not enough load
  add(small_heap, 0.02, 40, kFrameTagHeap, 600);
  add(small_pooled, 0.01, 40, 0, 600);
  EXPECT_FALSE(matched_load(small_heap, small_pooled, scratch).has_ratio);
}

// The A/B compare's hold-fire ramp: its median live count sits at the ramp's foot, so the
// steps are paired instead, from where the ramp is a load (20k objects) to its top.
TEST(MatchedLoad, PairedStepsCountTheRampFromWhereItIsALoad) {
  engine::FrameStats heap(600, 1), pooled(600, 1);
  for (std::uint32_t i = 0; i < 600; ++i) {
    const std::uint32_t live = i < 400 ? i * 50 : 20000 + (i - 400) * 1400;  // 0 .. 19950, then 20k .. 298.6k
    const std::uint8_t grew = i == 450 ? kFrameTagStorageGrew : 0;           // left out on both sides
    add(heap, live < 20000 ? 0.1 : 3.0, live, kFrameTagHeap | grew);
    add(pooled, live < 20000 ? 0.1 : 1.0, live, 0);
  }
  MatchedLoadScratch scratch;
  EXPECT_FALSE(matched_load(heap, pooled, scratch).has_ratio) << "the median of all steps is 10k: no load";
  const MatchedLoad m = matched_load_paired(heap, pooled, scratch);
  ASSERT_TRUE(m.has_ratio);
  EXPECT_EQ(m.heap_frames, 199u);
  EXPECT_EQ(m.pooled_frames, 199u);
  EXPECT_DOUBLE_EQ(m.ratio, 3.0);
  EXPECT_GE(m.live_objects, 155000u);
  EXPECT_LE(m.live_objects, 160000u);

  engine::FrameStats short_heap(60, 1), short_pooled(60, 1);  // a second of it: never a load
  for (std::uint32_t i = 0; i < 60; ++i) {
    add(short_heap, 0.1, i * 50, kFrameTagHeap);
    add(short_pooled, 0.1, i * 50, 0);
  }
  const MatchedLoad none = matched_load_paired(short_heap, short_pooled, scratch);
  EXPECT_FALSE(none.has_ratio);
  EXPECT_EQ(none.live_objects, 2950u) << "how far the runs got";
  EXPECT_EQ(compare_matched_line(none),
            "not enough load to compare: the runs reached 2950 live objects, 20000 needed; run more frames");
  EXPECT_EQ(compare_matched_line(m).find("heap 3.0x slower at 1"), 0u) << compare_matched_line(m);
}

TEST(MatchedLoad, LiveCountsAreRecordedByTheFrameLog) {
  FrameLog log(10, 0);
  log.record(1.0, 0.0, 0, kFrameTagHeap, {}, 12345);
  EXPECT_EQ(log.frames().sample(0).counters.live_objects, 12345u);
}

// The panel's headline keeps the last ratio measured, with how long ago, when the frames it was
// measured on are gone (a game over, a storage change), until a new ratio replaces it; with
// pooling off it begins "pooling OFF".
TEST(MatchedLoad, TheHeadlineKeepsTheLastRatioWithItsAgeAndSaysPoolingOff) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  const PoolRateMeter rates;
  OverlayViewOptions view;
  view.fixed_frame_seconds = 1.0 / 60;
  OverlayModel model;
  char line[160];
  headline_line(model, line, sizeof line);
  EXPECT_STREQ(line, "hold fire to compare");

  engine::FrameStats loaded(2400, 1);
  add(loaded, 1.0, 300000, 0, 100);
  add(loaded, 3.0, 300000, kFrameTagHeap, 100);
  update_overlay_model(model, {sim, loaded, rates}, view);
  headline_line(model, line, sizeof line);
  EXPECT_STREQ(line, "heap 3.0x slower at 300k objects (matched load)");

  engine::FrameStats after(2400, 1);  // a fresh world: no matched frame left in the ring
  for (int i = 0; i < 600; ++i) {
    add(after, 0.01, 40, 0);
    update_overlay_model(model, {sim, after, rates}, view);
  }
  EXPECT_FALSE(model.matched.has_ratio);
  headline_line(model, line, sizeof line);
  EXPECT_STREQ(line, "heap 3.0x slower at 300k objects (matched load, 10 s ago)");

  sim.settings().pooling = false;
  sim.step({});
  update_overlay_model(model, {sim, after, rates}, view);
  headline_line(model, line, sizeof line);
  EXPECT_STREQ(line, "pooling OFF: heap 3.0x slower at 300k objects (matched load, 10 s ago)");

  engine::FrameStats again(2400, 1);  // a new measurement replaces the kept one
  add(again, 1.0, 100000, 0, 100);
  add(again, 2.0, 100000, kFrameTagHeap, 100);
  update_overlay_model(model, {sim, again, rates}, view);
  headline_line(model, line, sizeof line);
  EXPECT_STREQ(line, "pooling OFF: heap 2.0x slower at 100k objects (matched load)");
  update_overlay_model(model, {sim, after, rates}, view);
  headline_line(model, line, sizeof line);
  EXPECT_STREQ(line, "pooling OFF: heap 2.0x slower at 100k objects (matched load, 0 s ago)");
}

// The default scenario with no input: 40-odd objects, nothing to compare. The panel says so
// and the report's ratio is null; the frames carry their live counts and full tags.
TEST(MatchedLoad, DefaultScenarioWithNoInputSaysHoldFire) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  OverlayRecorder recorder;
  const FrameSummary summary = run_headless(sim, 600, {}, kDefaultWarmupFrames, &recorder);
  const OverlayModel model = recorder.model(sim);
  EXPECT_FALSE(model.matched.has_ratio);
  char line[128];
  matched_load_line(model.matched, line, sizeof line);
  EXPECT_STREQ(line, "hold fire to compare");
  EXPECT_EQ(recorder.frames().latest()->counters.live_objects, live_objects(sim.stats()));
  EXPECT_GT(live_objects(sim.stats()), 0u);
  EXPECT_EQ(model.bytes_live_total, bytes_live(sim.stats()));
  const nlohmann::json report = make_report(sim, summary, {"default.json", true, &model});
  EXPECT_TRUE(report.at("overlay").at("matched_load").at("ratio").is_null()) << report.at("overlay").dump();
  EXPECT_EQ(report.at("pools_bytes_live"), bytes_live(sim.stats()));
  EXPECT_TRUE(report.at("machine").at("caches").is_array());
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("poolshot_caches_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void index(int i, const char* level, const char* type, const char* size) {
    const auto d = dir_ / ("index" + std::to_string(i));
    std::filesystem::create_directories(d);
    std::ofstream(d / "level") << level << "\n";
    std::ofstream(d / "type") << type << "\n";
    std::ofstream(d / "size") << size << "\n";
  }
  std::filesystem::path dir_;
};

using MachineCachesSys = TempDir;

TEST_F(MachineCachesSys, ReadsLevelTypeAndSizeOfEachIndex) {
  index(0, "1", "Data", "32K");
  index(1, "1", "Instruction", "32K");
  index(2, "2", "Unified", "512K");
  index(3, "3", "Unified", "32768K");
  std::filesystem::create_directories(dir_ / "power");  // not an index: skipped
  const MachineCaches c = read_sys_caches(dir_.string());
  ASSERT_EQ(c.levels.size(), 4u);
  EXPECT_EQ(c.levels[0].level, 1);
  EXPECT_EQ(c.levels[0].type, "Data");
  EXPECT_EQ(c.levels[0].size_bytes, 32768u);
  EXPECT_EQ(c.levels[3].size_bytes, 32u << 20);
  ASSERT_NE(c.data_cache(2), nullptr);
  EXPECT_EQ(c.data_cache(2)->size_bytes, 512u << 10);
  EXPECT_EQ(caches_json(c)[0], (nlohmann::json{{"level", 1}, {"type", "Data"}, {"size_bytes", 32768}}));

  char line[160];
  working_set_line(static_cast<std::size_t>(19.0 * 1024 * 1024), c, line, sizeof line);
  EXPECT_STREQ(line, "live 19.0 MiB vs L2 512 KiB, L3 32 MiB: the working set fits L3");
  working_set_line(std::size_t{40} << 20, c, line, sizeof line);
  EXPECT_STREQ(line, "live 40.0 MiB vs L2 512 KiB, L3 32 MiB: the working set spills L3");
  working_set_line(std::size_t{100} << 10, c, line, sizeof line);
  EXPECT_STREQ(line, "live 100 KiB vs L2 512 KiB, L3 32 MiB: the working set fits L2");
}

TEST_F(MachineCachesSys, MissingOrBrokenEntriesAreUnknown) {
  EXPECT_TRUE(read_sys_caches((dir_ / "no_such_dir").string()).levels.empty());
  index(0, "1", "Data", "lots");  // size does not parse: left out
  EXPECT_TRUE(read_sys_caches(dir_.string()).levels.empty());
  char line[160];
  working_set_line(1024, MachineCaches{}, line, sizeof line);
  EXPECT_STREQ(line, "live 1 KiB vs caches unknown");
  EXPECT_EQ(parse_cache_size("32K"), 32768u);
  EXPECT_EQ(parse_cache_size("2M"), 2u << 20);
  EXPECT_EQ(parse_cache_size("512"), 512u);
  EXPECT_EQ(parse_cache_size(""), 0u);
  EXPECT_EQ(parse_cache_size("K"), 0u);
}

}  // namespace
}  // namespace game
