// The overlay's command-line side, through the real binary: --compare writes the report,
// the two series as CSV and a chart PNG with both line colours; --advise writes a scenario
// whose rerun never grows; bad combinations are usage errors.
#include "metrics/compare_chart.hpp"

#include <engine/image.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_support.hpp"

namespace {

namespace fs = std::filesystem;

using game::test::RunResult;

// Runs poolshot with `args` (already shell-quoted), keeping stdout and stderr.
RunResult run_poolshot(const std::string& args) {
  return game::test::run_binary(POOLSHOT_BINARY, args, game::test::Streams::stdout_and_stderr);
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in, nullptr, false);
}

class OverlayCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = game::test::scratch_path("poolshot_overlay_cli_" +
                                    std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::size_t count_pixels(const engine::Image& image, const game::ChartRect& area, std::uint32_t colour) {
  std::size_t n = 0;
  for (int y = area.y0; y <= area.y1; ++y)
    for (int x = area.x0; x <= area.x1; ++x) n += image.pixel(x, y) == colour ? 1u : 0u;
  return n;
}

TEST_F(OverlayCli, CompareWritesReportCsvAndChart) {
  const fs::path report = dir_ / "ab.json";
  const RunResult r = run_poolshot("--headless --compare --frames 120 --report " + report.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("compared 120 frames each"), std::string::npos) << r.out;
  // Fire held is the load; two seconds of it is too little, and the output says so rather than
  // print a ratio.
  EXPECT_NE(r.out.find("load: fire held"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("matched load: not enough load to compare"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("x slower"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("x faster"), std::string::npos) << r.out;

  const nlohmann::json j = read_json(report);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j.at("mode"), "compare");
  EXPECT_EQ(j.at("load"), "fire held, aiming straight up, in both runs (as assets/scripts/hold_fire.json)");
  EXPECT_EQ(j.at("frames"), 120);
  EXPECT_EQ(j.at("pooled").at("pooling"), "on");
  EXPECT_EQ(j.at("heap").at("pooling"), "off");
  EXPECT_EQ(j.at("same_state_hash"), true);
  EXPECT_EQ(j.at("pooled").at("state_hash"), j.at("heap").at("state_hash"));
  EXPECT_GT(j.at("heap").at("heap_allocs").at("total").get<int>(),
            j.at("pooled").at("heap_allocs").at("total").get<int>());
  for (const char* ratio : {"sim_p50", "sim_p99", "sim_max"})
    EXPECT_TRUE(j.at("heap_over_pooled").contains(ratio)) << ratio;
  EXPECT_GT(j.at("pooled").at("sim_ms").at("p50").get<double>(), 0.0);
  // Two seconds of held fire is no load: the matched-load rule gives no ratio rather than one
  // at a few hundred objects.
  EXPECT_TRUE(j.at("matched_load").at("ratio").is_null()) << j.at("matched_load").dump();
  EXPECT_LT(j.at("matched_load").at("live_objects").get<double>(), 20000.0);
  EXPECT_EQ(j.at("csv"), (dir_ / "ab.csv").string());
  EXPECT_EQ(j.at("chart"), (dir_ / "ab.png").string());

  std::ifstream csv(dir_ / "ab.csv");
  std::string line;
  std::size_t rows = 0;
  ASSERT_TRUE(std::getline(csv, line));
  EXPECT_EQ(line, "frame,pooled_sim_ms,heap_sim_ms,pooled_heap_allocs,heap_heap_allocs");
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 120u);

  engine::Image chart;
  ASSERT_TRUE(engine::load_png((dir_ / "ab.png").string(), chart).is_ok());
  EXPECT_EQ(chart.width, 960);
  EXPECT_EQ(chart.height, 420);
  const game::ChartRect plot = game::chart_plot_area(chart.width, chart.height);
  EXPECT_GT(count_pixels(chart, plot, game::chart_colors::pooled), 200u) << "pooled line";
  EXPECT_GT(count_pixels(chart, plot, game::chart_colors::heap), 50u) << "heap line";
}

// The plain command plays under load: its default (fire held for ten seconds) reaches tens of
// thousands of objects, so it reports a matched-load ratio. The ratio's value is a timing, which
// scripts/figures measures; the test holds that there is one.
TEST_F(OverlayCli, ThePlainCompareRunsUnderLoadAndReportsAMatchedLoadRatio) {
  const fs::path report = dir_ / "plain.json";
  const RunResult r = run_poolshot("--headless --compare --report " + report.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("load: fire held"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("x s"), std::string::npos) << r.out;  // "heap 4.0x slower at" (or faster)
  EXPECT_NE(r.out.find(" objects (matched load)"), std::string::npos) << r.out;
  const nlohmann::json j = read_json(report);
  ASSERT_FALSE(j.at("matched_load").at("ratio").is_null()) << j.at("matched_load").dump();
  EXPECT_GT(j.at("matched_load").at("ratio").get<double>(), 0.0);
  EXPECT_GE(j.at("matched_load").at("live_objects").get<double>(), 20000.0);
}

TEST_F(OverlayCli, AdvisedScenarioRerunsWithoutGrowth) {
  // default.json with pools of 16 slots: the first run grows.
  std::ifstream in(std::string(POOLSHOT_SCENARIO_DIR) + "/default.json");
  nlohmann::json scenario = nlohmann::json::parse(in);
  for (auto& [name, pool] : scenario.at("pools").items()) {
    pool["initial_capacity"] = 16;
    pool["page_slots"] = 64;  // the default layout grows a page at a time
  }
  const fs::path small = dir_ / "small.json", advised = dir_ / "advised.json";
  std::ofstream(small) << scenario.dump(2);

  const fs::path first = dir_ / "first.json", second = dir_ / "second.json";
  const std::string common = "--headless --autofire --frames 600 --seed 5 ";
  RunResult r = run_poolshot(common + "--scenario " + small.string() + " --report " + first.string() + " --advise " +
                             advised.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json a = read_json(first);
  ASSERT_GT(a.at("overlay").at("growth_events").get<int>(), 0);
  ASSERT_TRUE(fs::exists(advised));

  r = run_poolshot(common + "--scenario " + advised.string() + " --report " + second.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json b = read_json(second);
  EXPECT_EQ(b.at("overlay").at("growth_events"), 0);
  EXPECT_TRUE(b.at("growth_log").empty());
  EXPECT_EQ(b.at("state_hash"), a.at("state_hash"));
  for (const auto& [name, pool] : b.at("pools").items()) {
    EXPECT_EQ(pool.at("policy").at("initial_capacity"),
              a.at("advisor").at("pools").at(name).at("suggested_initial_capacity"))
        << name;
  }
}

TEST_F(OverlayCli, BadCombinationsAreUsageErrors) {
  RunResult r = run_poolshot("--compare --frames 10");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--compare runs without a window; add --headless"), std::string::npos) << r.out;
  r = run_poolshot("--headless --compare --advise x.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("cannot be combined with --compare"), std::string::npos) << r.out;
  r = run_poolshot("--headless --frames 10 --advise /nonexistent-dir/x.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("/nonexistent-dir/x.json"), std::string::npos) << r.out;
}

}  // namespace
