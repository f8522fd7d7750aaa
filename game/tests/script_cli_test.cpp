// `poolshot --script FILE` through the real binary: a bad script is one line and exit 2; a
// scripted run's report has one phase per settings span, headless and offscreen alike.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "tests/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using game::test::RunResult;
using game::test::Streams;

RunResult run_poolshot(const std::string& args, const std::string& env = "") {
  return game::test::run_binary(POOLSHOT_BINARY, args, Streams::stderr_only, env);
}

class ScriptCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = game::test::scratch_path("poolshot_script_cli_" +
                                    std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  nlohmann::json report(const std::string& args, const std::string& env = "") {
    const fs::path path = dir_ / "r.json";
    const RunResult r = run_poolshot(args + " --report " + path.string(), env);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    std::ifstream in(path);
    return in ? nlohmann::json::parse(in) : nlohmann::json();
  }
  fs::path dir_;
};

// Pooled, heap, pooled in stable pages: three phases of 30 steps.
const char* kThreePhases = R"({"frames": 90, "events": [
    {"frame": 1, "fire": true, "aim": {"direction": [0, 1]}},
    {"frame": 31, "pooling": false}, {"frame": 61, "pooling": true, "storage": "stable"}]})";

void expect_three_phases(const nlohmann::json& r) {
  EXPECT_EQ(r.at("frames"), 90) << "the script's length, with no --frames";
  const nlohmann::json& p = r.at("phases");
  ASSERT_EQ(p.size(), 3u) << r.dump(1);
  const int first[] = {1, 31, 61}, last[] = {30, 60, 90};
  const char* pooling[] = {"on", "off", "on"};
  const char* storage[] = {"packed_pages", "packed_pages", "stable"};  // the default, then the script's
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(p[i].at("first_frame"), first[i]);
    EXPECT_EQ(p[i].at("last_frame"), last[i]);
    EXPECT_EQ(p[i].at("pooling"), pooling[i]);
    EXPECT_EQ(p[i].at("storage"), storage[i]);
    for (const char* part : {"sim_ms", "render_ms"}) {
      for (const char* q : {"p50", "p99", "max"}) EXPECT_TRUE(p[i].at(part).at(q).is_number()) << part << q;
    }
    EXPECT_GT(p[i].at("peak_live").get<int>(), 0);
    EXPECT_TRUE(p[i].at("growth_events").is_number_unsigned());
    EXPECT_TRUE(p[i].at("heap_allocs").at("p50").is_number_unsigned());
    EXPECT_TRUE(p[i].at("heap_allocs").at("max").is_number_unsigned());
  }
}

TEST_F(ScriptCli, HeadlessReportHasOnePhasePerSettingsSpan) {
  const std::string script = write("three.json", kThreePhases);
  const nlohmann::json r = report("--headless --script " + script);
  expect_three_phases(r);
  EXPECT_EQ(r.at("script"), script);
  EXPECT_EQ(r.at("phases").at(0).at("render_ms").at("max"), 0.0);
  EXPECT_EQ(r.at("pooling"), "on") << "the settings in force at the end";
}

TEST_F(ScriptCli, OffscreenReportHasTheSamePhasesWithRenderTimesAndTheSameGame) {
  const std::string script = write("three.json", kThreePhases);
  const nlohmann::json w = report("--script " + script, "SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy");
  expect_three_phases(w);
  for (const auto& phase : w.at("phases")) EXPECT_GT(phase.at("render_ms").at("p50").get<double>(), 0.0);
  const nlohmann::json h = report("--headless --script " + script);
  EXPECT_EQ(w.at("state_hash"), h.at("state_hash"));
}

// --frame-csv's `switch` column names each storage and walk switch on the frame (the step) it took
// effect, and nothing on the others, headless and offscreen alike.
TEST_F(ScriptCli, FrameCsvNamesEverySwitchOnItsFrame) {
  const std::string script = write("switches.json", R"({"frames": 90, "events": [
      {"frame": 1, "fire": true, "aim": {"direction": [0, 1]}},
      {"frame": 21, "storage": "packed"}, {"frame": 41, "walk": "swap_pop"},
      {"frame": 61, "storage": "stable", "walk": "bitmap"}, {"frame": 81, "pooling": false}]})");
  const std::map<int, std::string> expected = {{21, "packed"},
                                               {41, "swap-pop list"},
                                               {61, "stable|bitmap"},
                                               {81, "pooling off"}};
  for (const char* mode : {"--headless", ""}) {
    const fs::path csv = dir_ / "frames.csv";
    const RunResult r = run_poolshot(std::string(mode) + " --script " + script + " --frame-csv " + csv.string(),
                                     "SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy");
    ASSERT_EQ(r.exit_code, 0) << r.out;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "frame,sim_ms,render_ms,heap_allocs,storage_grew,switch") << mode;
    std::map<int, std::string> named;
    int rows = 0;
    while (std::getline(in, line)) {
      ++rows;
      const std::string name = line.substr(line.rfind(',') + 1);
      if (!name.empty()) named[std::stoi(line)] = name;
    }
    EXPECT_EQ(rows, 90) << mode;
    EXPECT_EQ(named, expected) << mode;
  }
}

TEST_F(ScriptCli, FramesOverridesTheScriptsLength) {
  const nlohmann::json r = report("--headless --frames 45 --script " + write("three.json", kThreePhases));
  EXPECT_EQ(r.at("frames"), 45);
  ASSERT_EQ(r.at("phases").size(), 2u);
  EXPECT_EQ(r.at("phases").at(1).at("last_frame"), 45);
}

TEST_F(ScriptCli, WithoutAScriptTheReportHasOnePhase) {
  const nlohmann::json r = report("--headless --frames 30");
  ASSERT_EQ(r.at("phases").size(), 1u);
  EXPECT_EQ(r.at("phases").at(0).at("last_frame"), 30);
  EXPECT_TRUE(r.at("script").is_null());
}

TEST_F(ScriptCli, BadScriptIsOneLineAndExitTwo) {
  const auto expect_error = [](const RunResult& r, const std::string& message) {
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out, "poolshot: " + message + "\n");
  };
  const std::string missing = (dir_ / "missing.json").string();
  expect_error(run_poolshot("--headless --script " + missing), "script '" + missing + "': cannot open: no such file");
  const std::string order =
      write("order.json", R"({"events": [{"frame": 9, "fire": true}, {"frame": 3, "fire": false}]})");
  expect_error(run_poolshot("--headless --script " + order),
               "script '" + order +
                   "': key 'events[1].frame': must not be before events[0].frame (9): events go in frame order");
  const std::string range = write("range.json", R"({"events": [{"frame": 1, "enemy_density": 500}]})");
  expect_error(run_poolshot("--script " + range, "SDL_VIDEODRIVER=offscreen"),
               "script '" + range + "': key 'events[0].enemy_density': must be a number in 0..100 (got 500)");
  const RunResult both = run_poolshot("--headless --compare --script " + range);
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.out.find("--script plays a single run; it cannot be combined with --compare"), std::string::npos);
}

TEST_F(ScriptCli, ShippedHoldFireRunsHeadless) {
  const nlohmann::json r =
      report("--headless --script " + std::string(POOLSHOT_SCENARIO_DIR) + "/../scripts/hold_fire.json");
  EXPECT_EQ(r.at("frames"), 1800);
  const nlohmann::json& p = r.at("phases");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].at("last_frame"), 600);
  EXPECT_EQ(p[1].at("pooling"), "off");
  EXPECT_EQ(p[1].at("first_frame"), 601);
  EXPECT_EQ(p[2].at("first_frame"), 1201);
  EXPECT_EQ(p[2].at("last_frame"), 1800);
  // The report's figures that are counts, not times (times are a benchmark: README).
  EXPECT_GE(p[0].at("peak_live").get<std::uint64_t>(), 200000u);  // 10 s of held fire
  EXPECT_GE(p[0].at("growth_events").get<std::uint64_t>(), 6u);
  EXPECT_GE(p[1].at("heap_allocs").at("p50").get<double>(), 1000.0);  // new/delete per object
  EXPECT_EQ(p[2].at("heap_allocs").at("p50").get<double>(), 0.0);
  // The report's allocation truth: pooled frames that neither grew nor rebuilt a pool allocate
  // nothing, and the heap span is its own figure (it once counted as "steady": 11,995).
  const nlohmann::json& a = r.at("heap_allocs");
  EXPECT_EQ(a.at("per_frame_max_steady"), 0) << a.dump(1);
  EXPECT_GT(a.at("steady_frames").get<std::uint64_t>(), 900u) << a.dump(1);
  EXPECT_GE(a.at("per_frame_max_heap").get<std::int64_t>(), 1000) << a.dump(1);
  EXPECT_EQ(a.at("heap_frames"), 599) << "frames 602..1200; 601 and 1201 switch";
  EXPECT_EQ(a.at("switch_frames"), 2);
  EXPECT_EQ(a.at("warmup_frames").get<std::uint64_t>() + a.at("steady_frames").get<std::uint64_t>() +
                a.at("growth_frames").get<std::uint64_t>() + a.at("heap_frames").get<std::uint64_t>() +
                a.at("switch_frames").get<std::uint64_t>(),
            1800u);
  EXPECT_FALSE(r.at("game").at("game_over").get<bool>());  // holding fire keeps you alive
  EXPECT_EQ(r.at("game").at("deaths").get<int>(), 0);
  // The game this script plays, pinned. Homing shots (default.json's `homing` key) changed the
  // rules, and with them the pin (was 0x834825805dc1cf8f before homing shots); so did particles
  // damped before they move, with no `prev` (0xb223633944bf8ee5 before).
  EXPECT_EQ(r.at("state_hash"), "0x60bdd201e9ed3deb");
  EXPECT_GT(r.at("game").at("stale_refusals").get<std::uint64_t>(), 0u) << "homing shots lost targets that died";
  // Heap against pooled at the same load agrees with the phases (heap span
  // against the pooled span after it, both at ~300k objects), where the newest-span ratio did not.
  const nlohmann::json& m = r.at("overlay").at("matched_load");
  ASSERT_TRUE(m.at("ratio").is_number()) << m.dump(1);
  const double phases_ratio = p[1].at("sim_ms").at("p50").get<double>() / p[2].at("sim_ms").at("p50").get<double>();
  EXPECT_NEAR(m.at("ratio").get<double>(), phases_ratio, 0.15 * phases_ratio) << m.dump(1);
  EXPECT_GE(m.at("live_objects").get<std::uint64_t>(), 200000u) << m.dump(1);
  EXPECT_GE(m.at("heap_frames").get<std::uint64_t>(), 30u);
  EXPECT_GE(m.at("pooled_frames").get<std::uint64_t>(), 30u);
  // The working set and this machine's caches.
  EXPECT_GT(r.at("pools_bytes_live").get<std::uint64_t>(), 0u);
  EXPECT_TRUE(r.at("machine").at("caches").is_array());
}

// The default scenario with no input never reaches a load: no matched-load ratio.
TEST_F(ScriptCli, DefaultScenarioWithNoInputHasNoMatchedLoadRatio) {
  const nlohmann::json r = report("--headless --frames 600");
  const nlohmann::json& m = r.at("overlay").at("matched_load");
  EXPECT_TRUE(m.at("ratio").is_null()) << m.dump(1);
  EXPECT_LT(m.at("live_objects").get<double>(), 20000.0);
}

// Fire, let go, die. The score freezes at the game's end: the report says the
// same at 2,400 and 4,800 steps, and an offscreen window playing the same script saves that
// number to the best-score file it is given.
TEST_F(ScriptCli, TheScoreFreezesAtGameOverAndTheBestScoreFileAgrees) {
  const std::string script = std::string(POOLSHOT_ASSET_DIR) + "/scripts/fire_then_let_go.json";
  const nlohmann::json at_2400 = report("--headless --script " + script + " --frames 2400");
  const nlohmann::json at_4800 = report("--headless --script " + script + " --frames 4800");
  const nlohmann::json& g = at_2400.at("game");
  ASSERT_TRUE(g.at("game_over").get<bool>()) << g.dump(1);
  EXPECT_LT(g.at("game_over_frame").get<std::uint64_t>(), 2400u);
  EXPECT_GT(g.at("score").get<std::int64_t>(), 0) << "5 s of fire killed something";
  EXPECT_EQ(at_4800.at("game").at("score"), g.at("score"));
  EXPECT_EQ(at_4800.at("game").at("kills"), g.at("kills"));

  const std::string best = (dir_ / "best_score.txt").string();
  const nlohmann::json window = report("--script " + script + " --frames 1200 --best-score " + best,
                                       "SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy");
  EXPECT_EQ(window.at("game").at("score"), g.at("score")) << "the window plays the same game";
  std::ifstream in(best);
  std::string header, score;
  std::getline(in, header);
  std::getline(in, score);
  EXPECT_EQ(header, "poolshot best score 1");
  EXPECT_EQ(score, std::to_string(g.at("score").get<std::int64_t>()));
}

TEST_F(ScriptCli, BestScoreIsRefusedWithHeadless) {
  const RunResult r = run_poolshot("--headless --best-score " + (dir_ / "b.txt").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--best-score"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "b.txt"));
}

}  // namespace
