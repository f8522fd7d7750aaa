// parse_options: every flag, both spellings, and a clear reason for each bad input.
#include "app/options.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace game {
namespace {

ParsedOptions parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv = {"poolshot"};
  argv.insert(argv.end(), args.begin(), args.end());
  return parse_options(static_cast<int>(argv.size()), argv.data());
}

TEST(Options, Defaults) {
  const ParsedOptions p = parse({});
  ASSERT_TRUE(p.options.has_value()) << p.error;
  EXPECT_FALSE(p.options->headless);
  EXPECT_FALSE(p.options->frames.has_value());
  EXPECT_FALSE(p.options->seed.has_value());
  EXPECT_FALSE(p.options->pooling.has_value());
}

TEST(Options, EveryFlag) {
  const ParsedOptions p = parse({"--headless", "--frames", "120", "--scenario", "s.json", "--seed=18446744073709551615",
                                 "--pooling", "off", "--storage=stable", "--autofire", "--report", "r.json"});
  ASSERT_TRUE(p.options.has_value()) << p.error;
  const Options& o = *p.options;
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.frames, 120u);
  EXPECT_EQ(o.scenario, "s.json");
  EXPECT_EQ(o.seed, 18446744073709551615ull);
  EXPECT_EQ(o.pooling, false);
  EXPECT_EQ(o.storage, engine::StorageMode::stable);
  EXPECT_TRUE(o.autofire);
  EXPECT_EQ(o.report, "r.json");
}

TEST(Options, VolumeAndMute) {
  const ParsedOptions defaults = parse({});
  ASSERT_TRUE(defaults.options.has_value());
  EXPECT_EQ(defaults.options->volume, 80);
  EXPECT_FALSE(defaults.options->mute);
  const ParsedOptions p = parse({"--volume", "0", "--mute"});
  ASSERT_TRUE(p.options.has_value()) << p.error;
  EXPECT_EQ(p.options->volume, 0);
  EXPECT_TRUE(p.options->mute);
  EXPECT_EQ(parse({"--volume=100"}).options->volume, 100);
  EXPECT_EQ(parse({"--volume", "101"}).error, "--volume: '101' is not a whole number from 0 to 100");
  EXPECT_EQ(parse({"--volume", "-1"}).error, "--volume: '-1' is not a whole number from 0 to 100");
  EXPECT_EQ(parse({"--volume", "loud"}).error, "--volume: 'loud' is not a whole number from 0 to 100");
  EXPECT_EQ(parse({"--volume"}).error, "--volume needs a value");
  EXPECT_EQ(parse({"--mute=yes"}).error, "--mute takes no value");
}

TEST(Options, RenderPathAutoByDefault) {
  const ParsedOptions defaults = parse({});
  ASSERT_TRUE(defaults.options.has_value());
  EXPECT_FALSE(defaults.options->render_path.has_value()) << "none: auto";
  EXPECT_STREQ(requested_render_path(*defaults.options), "auto");
  EXPECT_FALSE(parse({"--render-path", "auto"}).options->render_path.has_value());
  const ParsedOptions fast = parse({"--render-path=fast"});
  ASSERT_TRUE(fast.options.has_value()) << fast.error;
  EXPECT_EQ(fast.options->render_path, engine::RenderPath::fast);
  EXPECT_STREQ(requested_render_path(*fast.options), "fast");
  EXPECT_EQ(parse({"--render-path", "instanced"}).options->render_path, engine::RenderPath::instanced);
  EXPECT_EQ(parse({"--render-path", "foo"}).error, "--render-path: 'foo' is not 'auto', 'fast' or 'instanced'");
  EXPECT_EQ(parse({"--render-path", "Auto"}).error, "--render-path: 'Auto' is not 'auto', 'fast' or 'instanced'");
  EXPECT_EQ(parse({"--render-path"}).error, "--render-path needs a value");
}

TEST(Options, WindowSizeAndSkipTitle) {
  const ParsedOptions p = parse({"--window", "1280x720", "--skip-title"});
  ASSERT_TRUE(p.options.has_value()) << p.error;
  EXPECT_EQ(p.options->window_width, 1280);
  EXPECT_EQ(p.options->window_height, 720);
  EXPECT_TRUE(p.options->skip_title);
  const std::string why = "is not WIDTHxHEIGHT with 320..7680 x 240..4320 pixels";
  for (const char* bad : {"1280", "1280x", "x720", "100x100", "99999x720", "1280x720x2", "-1x5"}) {
    EXPECT_EQ(parse({"--window", bad}).error, std::string("--window: '") + bad + "' " + why);
  }
}

TEST(Options, Walk) {
  EXPECT_EQ(parse({"--walk", "swap_pop"}).options->walk, WalkMode::swap_pop);
  EXPECT_EQ(parse({"--walk=bitmap"}).options->walk, WalkMode::bitmap);
  EXPECT_EQ(parse({"--walk", "slot_order"}).options->walk, WalkMode::slot_order);
  EXPECT_FALSE(parse({"--headless"}).options->walk.has_value()) << "none: the scenario's choice";
}

TEST(Options, Help) { EXPECT_TRUE(parse({"--help"}).help); }

TEST(Options, BadInputsSayWhy) {
  EXPECT_EQ(parse({"--bogus"}).error, "unknown option --bogus");
  EXPECT_EQ(parse({"--frames"}).error, "--frames needs a value");
  EXPECT_EQ(parse({"--frames", "--headless"}).error, "--frames needs a value");
  EXPECT_EQ(parse({"--frames", "abc"}).error, "--frames: 'abc' is not a whole number from 0 to 1000000000");
  EXPECT_EQ(parse({"--frames", "-5"}).error, "--frames: '-5' is not a whole number from 0 to 1000000000");
  EXPECT_EQ(parse({"--frames=1000000001"}).error, "--frames: '1000000001' is not a whole number from 0 to 1000000000");
  EXPECT_EQ(parse({"--seed", "18446744073709551616"}).error,
            "--seed: '18446744073709551616' is not a whole number from 0 to 18446744073709551615 (2^64-1)");
  EXPECT_EQ(parse({"--seed", "0x10"}).error,
            "--seed: '0x10' is not a whole number from 0 to 18446744073709551615 (2^64-1)");
  EXPECT_EQ(parse({"--pooling", "maybe"}).error, "--pooling: 'maybe' is not 'on' or 'off'");
  EXPECT_EQ(parse({"--storage", "paged"}).error,
            "--storage: 'paged' is not 'contiguous', 'stable', 'packed' or 'packed_pages'");
  EXPECT_EQ(parse({"--walk", "sorted"}).error, "--walk: 'sorted' is not 'bitmap', 'swap_pop' or 'slot_order'");
  EXPECT_EQ(parse({"--headless=yes"}).error, "--headless takes no value");
  EXPECT_EQ(parse({"--seed", "1", "--seed", "2"}).error, "--seed given more than once");
  EXPECT_EQ(parse({"--report="}).error, "--report: the file name is empty");
  EXPECT_EQ(parse({"--headless", "--screenshot", "a.png"}).error,
            "--screenshot needs the renderer; it cannot be combined with --headless");
}

}  // namespace
}  // namespace game
