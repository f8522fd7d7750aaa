// The real poolshot binary, run through the shell: exit codes, messages on stderr, and an
// end-to-end report whose state_hash is the same with pooling on and off.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using game::test::RunResult;
using game::test::Streams;

// Runs poolshot with `args` (already shell-quoted); by default only stderr is kept, where
// the messages under test go.
RunResult run_poolshot(const std::string& args, Streams streams = Streams::stderr_only, const std::string& env = "") {
  return game::test::run_binary(POOLSHOT_BINARY, args, streams, env);
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = game::test::scratch_path("poolshot_cli_test_" +
                                    std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

// A bad flag or value: exactly one line, naming it and pointing at --help, and exit 2.
void expect_usage_error(const RunResult& r, const std::string& reason) {
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.out, "poolshot: " + reason + " (see --help)\n");
}

TEST_F(Cli, BadFlagsAndValues) {
  expect_usage_error(run_poolshot("--no-such-flag"), "unknown option --no-such-flag");
  expect_usage_error(run_poolshot("--headless --frames"), "--frames needs a value");
  expect_usage_error(run_poolshot("--headless --frames abc"),
                     "--frames: 'abc' is not a whole number from 0 to 1000000000");
  expect_usage_error(run_poolshot("--headless --frames -3"),
                     "--frames: '-3' is not a whole number from 0 to 1000000000");
  expect_usage_error(run_poolshot("--headless --seed 18446744073709551616"),
                     "--seed: '18446744073709551616' is not a whole number from 0 to 18446744073709551615 (2^64-1)");
  expect_usage_error(run_poolshot("--headless --seed -1"),
                     "--seed: '-1' is not a whole number from 0 to 18446744073709551615 (2^64-1)");
  expect_usage_error(run_poolshot("--headless --pooling sometimes"), "--pooling: 'sometimes' is not 'on' or 'off'");
  expect_usage_error(run_poolshot("--headless --storage paged"),
                     "--storage: 'paged' is not 'contiguous', 'stable', 'packed' or 'packed_pages'");
}

TEST_F(Cli, HelpGoesToStdoutAndSucceeds) {
  const RunResult r = run_poolshot("--help", Streams::stdout_and_stderr);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: poolshot"), std::string::npos);
}

TEST_F(Cli, BadScenarios) {
  const auto expect_scenario_error = [](const RunResult& r, const std::string& message) {
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("poolshot: " + message), std::string::npos) << r.out;
  };
  const std::string missing = (dir_ / "missing.json").string();
  expect_scenario_error(run_poolshot("--headless --scenario " + missing),
                        "scenario '" + missing + "': cannot open: no such file");
  const std::string unknown = write("unknown.json", R"({"waves": [{"kind": "grunt"}], "colour": "red"})");
  expect_scenario_error(run_poolshot("--headless --scenario " + unknown),
                        "scenario '" + unknown + "': key 'colour': unknown key");
  const std::string type = write("type.json", R"({"waves": [{"count": "many"}]})");
  expect_scenario_error(run_poolshot("--headless --scenario " + type),
                        "scenario '" + type + "': key 'waves[0].count': must be an integer in 1..10000 (got \"many\")");
  const std::string absurd = write("absurd.json", R"({"waves": [{"count": 1000000000}]})");
  expect_scenario_error(run_poolshot("--headless --scenario " + absurd),
                        "scenario '" + absurd +
                            "': key 'waves[0].count': must be an integer in 1..10000 (got 1000000000)");
  const std::string cap = write("cap.json", R"({"pools": {"particles": {"max_capacity": 4294967296}}, "waves": [{}]})");
  expect_scenario_error(
      run_poolshot("--headless --scenario " + cap),
      "scenario '" + cap + "': key 'pools.particles.max_capacity': must be an integer in 1..16777216 (got 4294967296)");
  const std::string text = write("text.json", "this is not json");
  expect_scenario_error(run_poolshot("--headless --scenario " + text), "scenario '" + text + "': not valid JSON: ");
  const std::string truncated = write("truncated.json", R"({"waves": [{"kind": )");
  expect_scenario_error(run_poolshot("--headless --scenario " + truncated),
                        "scenario '" + truncated + "': not valid JSON: ");
  const std::string huge = write("huge.json", "{");
  fs::resize_file(huge, 100u * 1024 * 1024);  // sparse, so the test stays fast
  expect_scenario_error(run_poolshot("--headless --scenario " + huge),
                        "scenario '" + huge + "': file is 104857600 bytes; the limit is 1048576 bytes");
}

TEST_F(Cli, NoDisplayHint) {
  const RunResult r = run_poolshot("--frames 1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("poolshot: no display found; run with --headless, or set SDL_VIDEODRIVER=offscreen"),
            std::string::npos)
      << r.out;
}

TEST_F(Cli, UnwritableReportFailsWithReason) {
  const RunResult r = run_poolshot("--headless --frames 1 --report " + (dir_ / "no/such/dir/r.json").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("cannot write report"), std::string::npos) << r.out;
}

nlohmann::json report_of(const RunResult& r, const fs::path& path) {
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST_F(Cli, ReportHashIsTheSameWithPoolingOnAndOff) {
  const fs::path on = dir_ / "on.json", off = dir_ / "off.json", stable = dir_ / "stable.json";
  const std::string common = "--headless --frames 900 --autofire --seed 77 ";
  const auto a = report_of(run_poolshot(common + "--pooling on --report " + on.string()), on);
  const auto b = report_of(run_poolshot(common + "--pooling off --report " + off.string()), off);
  const auto c = report_of(run_poolshot(common + "--storage stable --report " + stable.string()), stable);
  EXPECT_EQ(a.at("state_hash"), b.at("state_hash"));
  EXPECT_EQ(a.at("state_hash"), c.at("state_hash"));
  EXPECT_EQ(a.at("pooling"), "on");
  EXPECT_EQ(b.at("pooling"), "off");
  EXPECT_EQ(c.at("storage"), "stable");
  // The report's contract: the keys other tools read.
  EXPECT_EQ(a.at("frames"), 900);
  EXPECT_EQ(a.at("seed"), 77);
  EXPECT_EQ(a.at("state_hash").get<std::string>().size(), 18u);
  for (const char* part : {"sim", "render", "total"}) {
    for (const char* q : {"p50", "p99", "max"}) EXPECT_TRUE(a.at("frame_ms").at(part).at(q).is_number());
  }
  EXPECT_EQ(a.at("frame_ms").at("render").at("max"), 0.0);
  for (const char* pool : {"bullets", "enemy_bullets", "particles", "enemies"}) {
    for (const char* key : {"live", "peak_live", "capacity", "growth_events"}) {
      EXPECT_TRUE(a.at("pools").at(pool).at(key).is_number_unsigned()) << pool << "." << key;
    }
  }
  EXPECT_EQ(a.at("heap_allocs").at("per_frame_max_steady"), 0);
  EXPECT_EQ(a.at("heap_allocs").at("heap_frames"), 0);
  EXPECT_EQ(a.at("heap_allocs").at("per_frame_max_heap"), -1) << "no heap frame";
  // Pooling off: every frame is a heap frame, reported as such and never as steady.
  EXPECT_EQ(b.at("heap_allocs").at("steady_frames"), 0);
  EXPECT_EQ(b.at("heap_allocs").at("per_frame_max_steady"), -1) << "no pooled frame";
  EXPECT_EQ(b.at("heap_allocs").at("heap_frames"), 900 - b.at("heap_allocs").at("warmup_frames").get<int>());
  EXPECT_GT(b.at("heap_allocs").at("per_frame_max_heap").get<int>(), 0) << "heap mode allocates per object";
}

TEST_F(Cli, DifferentSeedDifferentHash) {
  const fs::path one = dir_ / "1.json", two = dir_ / "2.json";
  const auto a = report_of(run_poolshot("--headless --frames 600 --autofire --seed 1 --report " + one.string()), one);
  const auto b = report_of(run_poolshot("--headless --frames 600 --autofire --seed 2 --report " + two.string()), two);
  EXPECT_NE(a.at("state_hash"), b.at("state_hash"));
}

}  // namespace

namespace {

// The windowed path through the runtime (offscreen GL): it renders, writes the screenshot,
// and plays the very same game as --headless.
TEST_F(Cli, OffscreenWindowPlaysTheSameGameAsHeadless) {
  const fs::path shot = dir_ / "shot.png", windowed = dir_ / "windowed.json", headless = dir_ / "headless.json";
  const std::string common = "--frames 120 --autofire --seed 5 ";
  const auto w = report_of(run_poolshot(common + "--screenshot " + shot.string() + " --report " + windowed.string(),
                                        Streams::stderr_only, "SDL_VIDEODRIVER=offscreen"),
                           windowed);
  const auto h = report_of(run_poolshot("--headless " + common + "--report " + headless.string()), headless);
  EXPECT_EQ(w.at("state_hash"), h.at("state_hash"));
  EXPECT_EQ(w.at("headless"), false);
  EXPECT_GT(w.at("frame_ms").at("render").at("max").get<double>(), 0.0);
  ASSERT_TRUE(fs::exists(shot));
  EXPECT_GT(fs::file_size(shot), 1000u);
}

// --render-path auto (the default) picks the path from GL_RENDERER once the context exists,
// and the report names the path, the request and the GL; a headless run draws nothing.
TEST_F(Cli, RenderPathAutoIsChosenFromTheGlAndNamedInTheReport) {
  const std::string offscreen = "SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy";
  const fs::path chosen = dir_ / "auto.json", asked = dir_ / "instanced.json", headless = dir_ / "headless.json";
  const auto a = report_of(run_poolshot("--render-path auto --frames 30 --report " + chosen.string(),
                                        Streams::stderr_only, offscreen),
                           chosen);
  const nlohmann::json& render = a.at("render");
  EXPECT_EQ(render.at("requested"), "auto");
  const std::string gl = render.at("gl_renderer").get<std::string>();
  EXPECT_FALSE(gl.empty());
  const bool software = render.at("software_gl").get<bool>();
  EXPECT_EQ(render.at("path"), software ? "fast" : "instanced") << gl;
  if (gl.find("llvmpipe") != std::string::npos) {
    EXPECT_TRUE(software) << gl;
  }
  EXPECT_GT(a.at("frame_ms").at("render").at("p50").get<double>(), 0.0);

  const auto i = report_of(run_poolshot("--render-path instanced --frames 5 --report " + asked.string(),
                                        Streams::stderr_only, offscreen),
                           asked);
  EXPECT_EQ(i.at("render").at("requested"), "instanced");
  EXPECT_EQ(i.at("render").at("path"), "instanced") << "asked for, whatever the GL";

  const auto h = report_of(run_poolshot("--headless --frames 5 --report " + headless.string()), headless);
  EXPECT_EQ(h.at("render").at("requested"), "auto");
  EXPECT_TRUE(h.at("render").at("path").is_null()) << "no GL, no path";
  EXPECT_TRUE(h.at("render").at("gl_renderer").is_null());

  expect_usage_error(run_poolshot("--render-path foo --frames 5", Streams::stderr_only, offscreen),
                     "--render-path: 'foo' is not 'auto', 'fast' or 'instanced'");
}

}  // namespace
