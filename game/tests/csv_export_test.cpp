// CSV export: the overlay's frame window and growth log, and the A/B comparison, as files
// with the documented columns and one row per frame or growth.
#include "app/compare_run.hpp"
#include "metrics/csv_export.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace game {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t fields(const std::string& line) {
  return static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(CsvExport, FrameWindowHasOneRowPerFrameWithItsGrowthsAndSwitches) {
  FrameWindow w;
  FrameRow a;
  a.frame = 7;
  a.sim_ms = 1.5f;
  a.render_ms = 0.25f;
  a.allocations = 3;
  a.draw_calls = 6;
  a.sprites = 900;
  FrameRow b = a;
  b.frame = 8;
  b.over_budget = true;
  b.grew = 0b0101;  // bullets and particles
  w.rows = {a, b};
  // Frame 8 switched to packed storage and the swap-pop walk.
  for (const auto& [kind, label] :
       {std::pair{SwitchKind::storage, "packed"}, std::pair{SwitchKind::walk, "swap-pop list"}}) {
    SwitchMark& m = w.switches.emplace_back();
    m.frame = 8;
    m.kind = kind;
    std::snprintf(m.label, sizeof m.label, "%s", label);
  }
  const auto lines = lines_of(frame_window_csv(w));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "frame,sim_ms,render_ms,total_ms,over_budget,heap_allocs,draw_calls,sprites,grew,switch");
  EXPECT_EQ(lines[1], "7,1.5000,0.2500,1.7500,0,3,6,900,,");
  EXPECT_EQ(lines[2], "8,1.5000,0.2500,1.7500,1,3,6,900,bullets|particles,packed|swap-pop list");
}

TEST(CsvExport, OverlayExportWritesTheWindowAndTheGrowthLog) {
  Scenario s = test::repo_scenario("default.json");
  for (PoolConfig& p : s.pools) p.initial_capacity = 16;
  s.storage = engine::StorageMode::contiguous;  // growths that double: 16 -> 32 first
  Simulation sim(s, 3);
  sim.settings().autofire = true;
  OverlayRecorder recorder;
  run_headless(sim, 240, {}, 60, &recorder);
  OverlayViewOptions view;
  view.window_seconds = 2;
  const OverlayModel model = recorder.model(sim, view);
  ASSERT_FALSE(model.growth_log.empty());

  const fs::path dir = game::test::scratch_path("poolshot_csv_export_test");
  fs::create_directories(dir);
  const ExportedFiles files = export_overlay_csv(model, dir.string());
  ASSERT_TRUE(files.ok()) << files.error;
  EXPECT_EQ(files.frames_path, (dir / "poolshot_frames_240.csv").string());
  const auto frames = lines_of(read(files.frames_path));
  ASSERT_EQ(frames.size(), 121u) << "header + 2 s of steps";
  for (const std::string& line : frames) EXPECT_EQ(fields(line), 10u) << line;
  EXPECT_EQ(frames.back().rfind("239,", 0), 0u) << frames.back();
  const auto growth = lines_of(read(files.growth_path));
  ASSERT_EQ(growth.size(), model.growth_log.size() + 1);
  EXPECT_EQ(growth[0],
            "frame,pool,old_capacity,new_capacity,bytes_allocated,microseconds,relocated,relocated_objects,rebuild");
  for (const std::string& line : growth) EXPECT_EQ(fields(line), 9u) << line;
  EXPECT_NE(growth[1].find(",16,32,"), std::string::npos) << "the first growth doubles 16: " << growth[1];
  fs::remove_all(dir);

  const ExportedFiles failed = export_overlay_csv(model, "/nonexistent-dir");
  EXPECT_FALSE(failed.ok());
  EXPECT_NE(failed.error.find("/nonexistent-dir/poolshot_frames_240.csv"), std::string::npos) << failed.error;
}

TEST(CsvExport, CompareHasBothSeriesSideBySide) {
  Settings settings = settings_from(test::repo_scenario("default.json"));
  settings.autofire = true;
  const CompareResult r = run_compare(test::repo_scenario("default.json"), 4, settings, 90);
  ASSERT_TRUE(r.done);
  ASSERT_EQ(r.pooled.steps(), 90u);
  ASSERT_EQ(r.heap.steps(), 90u);
  const auto lines = lines_of(compare_csv(r));
  ASSERT_EQ(lines.size(), 91u);
  EXPECT_EQ(lines[0], "frame,pooled_sim_ms,heap_sim_ms,pooled_heap_allocs,heap_heap_allocs");
  EXPECT_EQ(lines[1].rfind("1,", 0), 0u);
  EXPECT_EQ(lines[90].rfind("90,", 0), 0u);
  for (const std::string& line : lines) EXPECT_EQ(fields(line), 5u) << line;
  EXPECT_TRUE(r.same_game());
  EXPECT_GT(r.heap.heap_allocs_total, r.pooled.heap_allocs_total);
}

}  // namespace
}  // namespace game
