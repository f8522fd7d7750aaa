// The overlay on screen: an offscreen 1280x720 run of the real game with the panel open,
// checked by pixels. The panel's title bar is where the panel says it is, the frame-time
// graph has drawn its lines inside its box, and the game still shows to the left of the
// panel. With the overlay hidden (F1) none of it is there: the check can fail.
#include "atlas_cells.hpp"
#include "game_app.hpp"
#include "headless_run.hpp"
#include "overlay_recorder.hpp"
#include "pixel_probe.hpp"
#include "test_support.hpp"

#include <engine/application.hpp>
#include <engine/image.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace game {
namespace {

namespace fs = std::filesystem;

struct Shot {
  engine::Image image;
  ScreenRect panel, graph;
  std::string skip;  // set when there is no GL here
};

Shot take_shot(bool overlay_visible, std::int64_t frames) {
  setenv("SDL_VIDEODRIVER", "offscreen", 1);
  const fs::path path = fs::temp_directory_path() / ("poolshot_overlay_shot_" + std::to_string(overlay_visible) + ".png");
  Shot shot;
  Simulation sim(test::repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  engine::AppConfig config;
  config.mode = engine::RunMode::offscreen;
  config.max_frames = frames;
  config.deterministic_time = true;
  config.overlay_visible = overlay_visible;
  config.screenshot_path = path.string();
  config.atlas_path = POOLSHOT_ATLAS_PATH;
  config.atlas_cell_px = atlas::kCellPixels;
  config.stats_window = kOverlayStatsFrames;
  config.stats_events = kOverlayStatsEvents;
  engine::Application app(config);
  if (const engine::Status s = app.init(); !s) {
    shot.skip = s.message();
    return shot;
  }
  GameApp game(sim, app, kDefaultWarmupFrames);
  EXPECT_EQ(app.run(game), 0);
  EXPECT_TRUE(engine::load_png(path.string(), shot.image).is_ok());
  shot.panel = game.panel().panel_rect();
  shot.graph = game.panel().graph_rect();
  fs::remove(path);
  return shot;
}

using test::count;
using test::opaque;

TEST(OverlayScreenshot, PanelAndGraphAreDrawnOverTheGame) {
  const Shot shot = take_shot(true, 150);
  if (!shot.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << shot.skip;
  const engine::Image& img = shot.image;
  ASSERT_EQ(img.width, 1280);
  ASSERT_EQ(img.height, 720);

  // The panel sits at the right edge, below the top, and leaves most of the screen to the game.
  const ScreenRect& p = shot.panel;
  ASSERT_FALSE(p.empty());
  EXPECT_NEAR(p.x1, 1280 - 8, 1);
  EXPECT_NEAR(p.x1 - p.x0, OverlayPanel::kWidth, 1);
  EXPECT_LT(p.x1 - p.x0, 1280 * 0.45f);
  EXPECT_LE(p.y1, 720);
  // Its title bar (opaque, the panel's own colour) fills most of the top 18 rows.
  const std::size_t title = count(img, p.x0 + 2, p.y0 + 2, p.x1 - 2, p.y0 + 16, overlay_colors::title, 2);
  EXPECT_GT(title, static_cast<std::size_t>((p.x1 - p.x0 - 4) * 14 * 0.6f)) << "title pixels: " << title;

  // The frame-time graph: inside the panel, with lines of both series colours in its box.
  const ScreenRect& g = shot.graph;
  ASSERT_FALSE(g.empty());
  EXPECT_GE(g.x0, p.x0);
  EXPECT_LE(g.x1, p.x1);
  EXPECT_GT(g.y0, p.y0);
  EXPECT_GT(count(img, g.x0, g.y0, g.x1, g.y1, opaque(overlay_colors::sim_line), 24), 80u) << "simulation line";
  EXPECT_GT(count(img, g.x0, g.y0, g.x1, g.y1, opaque(overlay_colors::total_line), 24), 80u) << "sim + render line";
  EXPECT_EQ(count(img, 0, 0, p.x0 - 1, 720, opaque(overlay_colors::title), 0), 0u) << "title colour outside the panel";

  // The game shows beside it: sprites (not only the clear colour) left of the panel.
  const std::uint32_t clear = engine::rgba(12, 14, 20);
  const std::size_t left_pixels = static_cast<std::size_t>(p.x0) * 720;
  EXPECT_LT(count(img, 0, 0, p.x0, 720, clear, 0), left_pixels) << "the game area is empty";
}

TEST(OverlayScreenshot, F1HiddenOverlayDrawsNothing) {
  const Shot shot = take_shot(false, 30);
  if (!shot.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << shot.skip;
  EXPECT_EQ(count(shot.image, 0, 0, 1280, 720, opaque(overlay_colors::title), 0), 0u);
  EXPECT_TRUE(shot.graph.empty()) << "the panel never ran";
}

}  // namespace
}  // namespace game
