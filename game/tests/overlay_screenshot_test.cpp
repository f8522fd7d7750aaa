// The overlay on screen: an offscreen 1280x720 run of the real game with the panel open,
// checked by pixels. The panel is a column docked at the right edge, full height; its title
// bar is where the panel says it is, the frame-time graph has drawn its lines inside its box,
// and the game shows in the playfield beside it. The playfield never reaches under the panel:
// with the panel's drawing left out, not one sprite pixel lies where the panel goes. With the
// overlay hidden (F1) none of it is there: the check can fail.
#include "sim/atlas_cells.hpp"
#include "tests/offscreen_game.hpp"
#include "app/game_app.hpp"
#include "app/headless_run.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/pixel_probe.hpp"
#include "tests/test_support.hpp"

#include <engine/application.hpp>
#include <engine/image.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

namespace game {
namespace {

namespace fs = std::filesystem;

struct Shot {
  engine::Image image;
  ScreenRect panel, graph, playfield;
  std::string skip;  // set when there is no GL here
};

// GameApp laid out for an open overlay but drawing no panel: what the sprites alone cover.
class NoPanelGameApp final : public GameApp {
 public:
  using GameApp::GameApp;
  void imgui() override {}
};

Shot take_shot(bool overlay_visible, std::int64_t frames, bool draw_panel = true) {
  const fs::path path = game::test::scratch_path("poolshot_overlay_shot_" + std::to_string(overlay_visible) + ".png");
  Shot shot;
  Simulation sim(test::repo_scenario("default.json"), 1);
  sim.settings().autofire = true;
  engine::AppConfig config = test::offscreen_game_config(frames, path.string());
  config.overlay_visible = overlay_visible;
  engine::Application app(config);
  if (const engine::Status s = app.init(); !s) {
    shot.skip = s.message();
    return shot;
  }
  std::unique_ptr<GameApp> game = draw_panel ? std::make_unique<GameApp>(sim, app, kDefaultWarmupFrames)
                                             : std::make_unique<NoPanelGameApp>(sim, app, kDefaultWarmupFrames);
  EXPECT_EQ(app.run(*game), 0);
  EXPECT_TRUE(engine::load_png(path.string(), shot.image).is_ok());
  shot.panel = game->panel().panel_rect();
  shot.graph = game->panel().graph_rect();
  shot.playfield = game->playfield();
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

  // The panel is docked at the right edge, full height, and leaves most of the screen to the game.
  const ScreenRect& p = shot.panel;
  ASSERT_FALSE(p.empty());
  EXPECT_NEAR(p.x1, 1280, 1);
  EXPECT_NEAR(p.y0, 0, 1);
  EXPECT_NEAR(p.y1, 720, 1);
  EXPECT_NEAR(p.x1 - p.x0, OverlayPanel::kWidth, 1);
  EXPECT_LT(p.x1 - p.x0, 1280 * 0.45f);
  // The playfield is the rest: beside the panel, never under it.
  EXPECT_NEAR(shot.playfield.x1, p.x0, 1);
  EXPECT_EQ(shot.playfield.x0, 0);
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

// The same layout with the panel's own drawing left out: every sprite pixel is in the
// playfield, none where the panel goes, and the playfield is full of the game.
TEST(OverlayScreenshot, NoObjectIsDrawnWhereThePanelGoes) {
  const Shot shot = take_shot(true, 150, false);
  if (!shot.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << shot.skip;
  const engine::Image& img = shot.image;
  const float panel_x0 = 1280 - OverlayPanel::kWidth;
  ASSERT_NEAR(shot.playfield.x1, panel_x0, 1);
  const std::uint32_t clear = engine::rgba(12, 14, 20);
  const std::size_t panel_pixels = static_cast<std::size_t>(OverlayPanel::kWidth) * 720;
  EXPECT_EQ(count(img, panel_x0, 0, 1280, 720, clear, 0), panel_pixels) << "a sprite was drawn under the panel";
  const std::size_t field_pixels = static_cast<std::size_t>(panel_x0) * 720;
  const std::size_t field_clear = count(img, 0, 0, panel_x0, 720, clear, 0);
  EXPECT_LT(field_clear, field_pixels - 2000) << "the playfield shows the game (ship, bullets, stars)";
  // The world's right edge (x = 1000) lands at the playfield's right edge: scaled, not cut.
  EXPECT_LT(count(img, panel_x0 - 120, 0, panel_x0, 720, clear, 0), 120u * 720u) << "the right of the world is drawn";
}

TEST(OverlayScreenshot, F1HiddenOverlayDrawsNothing) {
  const Shot shot = take_shot(false, 30);
  if (!shot.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << shot.skip;
  EXPECT_EQ(count(shot.image, 0, 0, 1280, 720, opaque(overlay_colors::title), 0), 0u);
  EXPECT_TRUE(shot.graph.empty()) << "the panel never ran";
}

}  // namespace
}  // namespace game
