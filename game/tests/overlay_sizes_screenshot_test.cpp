// The panel at any size: offscreen runs of the real game at 900x600 and 1920x1080 with every
// section open, switching storage, walk and pooling through the settings (as Controls and the
// header switch do). After every switch, on every frame: no table cell's text or widget is wider
// than its column (OverlayPanel::clipped_cells(), counted as the cells are drawn), nothing in the
// sections runs past the column's edge, and the score line (the HUD) stays in the playfield,
// never under the panel. The graph marks each storage and walk switch with a labelled line.
// The clip counter counts: a column made too narrow on purpose is counted (CellFitCounts).
#include "app/game_app.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/offscreen_game.hpp"
#include "tests/pixel_probe.hpp"
#include "tests/test_support.hpp"

#include <engine/application.hpp>
#include <engine/image.hpp>

#include <imgui.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace game {
namespace {

namespace fs = std::filesystem;

bool intersects(const ScreenRect& a, const ScreenRect& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// The switches, at the step about to run (one step per frame): storage, storage and walk,
// pooling off and on, storage and walk again.
void switch_settings(Settings& s, std::uint64_t step) {
  if (step == 30) s.storage = engine::StorageMode::packed;
  if (step == 60) {
    s.storage = engine::StorageMode::stable;
    s.walk = WalkMode::swap_pop;
  }
  if (step == 90) s.pooling = false;
  if (step == 120) s.pooling = true;
  if (step == 150) {
    s.storage = engine::StorageMode::contiguous;
    s.walk = WalkMode::bitmap;
  }
}

class SwitchingGameApp final : public GameApp {
 public:
  SwitchingGameApp(Simulation& sim, engine::Application& app, bool full_screen)
      : GameApp(sim, app, kDefaultWarmupFrames), sim_(sim), app_(app), full_screen_(full_screen) {}
  void fixed_update(const engine::InputState& input, double dt) override {
    switch_settings(sim_.settings(), sim_.frame() + 1);
    if (full_screen_ && sim_.frame() + 1 == 5) app_.set_fullscreen(true);  // as F11 does
    GameApp::fixed_update(input, dt);
  }
  void imgui() override {
    GameApp::imgui();
    const OverlayPanel& p = panel();
    if (p.clipped_cells() > clipped) {
      clipped = p.clipped_cells();
      first_clipped = p.first_clipped_cell();
      clipped_at = sim_.frame();
    }
    // From the third frame: the first lays the sections out before ImGui knows they need a
    // scrollbar, and the second reads that frame's width.
    if (drawn >= 2) overflow_x = std::max(overflow_x, p.overflow_x());
    const ScreenRect hud = hud_rect();
    if (!hud.empty() && intersects(hud, p.panel_rect())) ++hud_under_panel;
    ++drawn;
  }
  int clipped = 0;
  std::string first_clipped;
  std::uint64_t clipped_at = 0;
  float overflow_x = 0;
  int hud_under_panel = 0;
  int drawn = 0;

 private:
  Simulation& sim_;
  engine::Application& app_;
  bool full_screen_;
};

struct SizedRun {
  int clipped = 0;
  std::string first_clipped;
  std::uint64_t clipped_at = 0;
  float overflow_x = 0;
  int hud_under_panel = 0, drawn = 0;
  ScreenRect panel, hud, playfield, world;
  FrameGraphRects graph;
  OverlayModel model;
  engine::Image image;
  std::string skip;    // set when there is no GL here
  SDL_Rect display{};  // the display's bounds while the game ran
};

// full_screen: on the X server in DISPLAY (scripts/tools/with_xvfb), a window that goes full
// screen at step 5 as F11 makes it; else an offscreen window of width x height.
SizedRun run_at(int width, int height, std::int64_t frames, bool full_screen = false) {
  const std::string name = "poolshot_panel_" + std::to_string(width) + "x" + std::to_string(height) +
                           (full_screen ? "_full_screen.png" : ".png");
  const fs::path path = test::scratch_path(name);
  SizedRun run;
  Simulation sim(test::repo_scenario("pressure.json"), 1);  // small pools: the growth log fills at once
  sim.settings().autofire = true;
  engine::AppConfig config = test::offscreen_game_config(frames, path.string());
  config.width = width;
  config.height = height;
  if (full_screen) {
    setenv("SDL_VIDEODRIVER", "x11", 1);
    config.mode = engine::RunMode::windowed;
    config.vsync = false;
  }
  engine::Application app(config);
  if (const engine::Status s = app.init(); !s) {
    run.skip = s.message();
    return run;
  }
  SDL_GetDisplayBounds(0, &run.display);
  SwitchingGameApp game(sim, app, full_screen);
  game.panel().open_every_section();
  game.start_compare(30);  // the Compare section's table
  EXPECT_EQ(app.run(game), 0);
  EXPECT_TRUE(engine::load_png(path.string(), run.image).is_ok());
  run.clipped = game.clipped;
  run.first_clipped = game.first_clipped;
  run.clipped_at = game.clipped_at;
  run.overflow_x = game.overflow_x;
  run.hud_under_panel = game.hud_under_panel;
  run.drawn = game.drawn;
  run.panel = game.panel().panel_rect();
  run.hud = game.hud_rect();
  run.playfield = game.playfield();
  run.world = game.world_rect();
  run.graph = game.panel().graph_rects();
  run.model = game.overlay_model();
  // POOLSHOT_KEEP_SHOTS=DIR keeps the picture there, to look at what the test checked.
  if (const char* keep = std::getenv("POOLSHOT_KEEP_SHOTS"))
    fs::copy_file(path, fs::path(keep) / path.filename(), fs::copy_options::overwrite_existing);
  fs::remove(path);
  return run;
}

void expect_fits(const SizedRun& run, int width, int height) {
  ASSERT_EQ(run.image.width, width);
  ASSERT_EQ(run.image.height, height);
  EXPECT_GT(run.drawn, 150);
  EXPECT_EQ(run.clipped, 0) << "a table cell wider than its column: \"" << run.first_clipped << "\" at step "
                            << run.clipped_at;
  EXPECT_EQ(run.overflow_x, 0.0f) << "the sections run past the column's edge";
  // Docked at the right edge, full height; the playfield is the rest, the HUD inside it.
  EXPECT_NEAR(run.panel.x1, static_cast<float>(width), 1);
  EXPECT_NEAR(run.panel.y1, static_cast<float>(height), 1);
  EXPECT_NEAR(run.playfield.x1, run.panel.x0, 1);
  ASSERT_FALSE(run.hud.empty()) << "the score line was not drawn";
  EXPECT_EQ(run.hud_under_panel, 0) << "the HUD reached under the panel on some frame";
  EXPECT_LE(run.hud.x1, run.panel.x0);
  // The switches the run made, in the model and on the graph: every one of them switched.
  const OverlayModel& m = run.model;
  EXPECT_TRUE(m.pooling);
  EXPECT_EQ(m.storage, engine::StorageMode::contiguous);
  EXPECT_EQ(m.walk, WalkMode::bitmap);
  EXPECT_GE(run.graph.switch_labels, 3u) << "the storage and walk switches are labelled on the graph";
}

// The world after holding fire: below the score line, inside the playfield, with its edge drawn
// around it, and not one sprite pixel (a star, a puff of smoke, a bullet) past that edge: outside
// the world and its edge the playfield is the clear colour, but for the score line's window.
void expect_world_inside_its_edge(const SizedRun& run) {
  const ScreenRect& w = run.world;
  ASSERT_FALSE(w.empty());
  EXPECT_GE(w.y0, run.hud.y1) << "the world reaches under the score line";
  EXPECT_GE(w.x0, run.playfield.x0);
  EXPECT_LE(w.x1, run.playfield.x1);
  EXPECT_LE(w.y1, run.playfield.y1);
  // As large as it fits: the world meets the playfield's sides or its bottom (the edge between).
  const float slack_x = (run.playfield.x1 - run.playfield.x0) - (w.x1 - w.x0);
  const float slack_y = run.playfield.y1 - run.hud.y1 - (w.y1 - w.y0);
  EXPECT_LE(std::min(slack_x, slack_y), 3 * GameApp::kEdgeInset + 1) << "the world does not fill the playfield";
  const std::uint32_t clear = engine::rgba(12, 14, 20);
  const float margin = GameApp::kEdgeInset + 1;  // the edge line and its anti-aliased fringe
  std::size_t outside = 0, first_x = 0, first_y = 0;
  const int right = static_cast<int>(run.panel.x0);
  for (int y = 0; y < run.image.height; ++y) {
    for (int x = 0; x < right; ++x) {
      const float fx = static_cast<float>(x) + 0.5f, fy = static_cast<float>(y) + 0.5f;
      const bool in_world = fx > w.x0 - margin && fx < w.x1 + margin && fy > w.y0 - margin && fy < w.y1 + margin;
      const bool in_hud = fx >= run.hud.x0 && fx < run.hud.x1 && fy >= run.hud.y0 && fy < run.hud.y1;
      if (in_world || in_hud || test::near(run.image.pixel(x, y), clear, 0)) continue;
      if (outside++ == 0) {
        first_x = static_cast<std::size_t>(x);
        first_y = static_cast<std::size_t>(y);
      }
    }
  }
  EXPECT_EQ(outside, 0u) << "pixels drawn past the world's edge, the first at " << first_x << "," << first_y;
  // The edge is seen: its colour along the top and the left side, 2.5 pixels out.
  const std::uint32_t edge = test::opaque(GameApp::kWorldEdgeColour);
  const auto seen = [&](float x0, float y0, float x1, float y1) {
    return static_cast<double>(test::count(run.image, x0, y0, x1, y1, edge, 24));
  };
  EXPECT_GE(seen(w.x0, w.y0 - 4, w.x1, w.y0 - 1), 0.9 * (w.x1 - w.x0)) << "the top edge";
  EXPECT_GE(seen(w.x0 - 4, w.y0, w.x0 - 1, w.y1), 0.9 * (w.y1 - w.y0)) << "the left edge";
  EXPECT_GE(seen(w.x1 + 1, w.y0, w.x1 + 4, w.y1), 0.9 * (w.y1 - w.y0)) << "the right edge";
}

TEST(OverlaySizes, At900x600EveryCellFitsAfterTheSwitchesAndTheHudStaysBesideThePanel) {
  const SizedRun run = run_at(900, 600, 180);
  if (!run.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << run.skip;
  expect_fits(run, 900, 600);
  expect_world_inside_its_edge(run);
}

TEST(OverlaySizes, At1920x1080EveryCellFitsAfterTheSwitchesAndTheHudStaysBesideThePanel) {
  const SizedRun run = run_at(1920, 1080, 180);
  if (!run.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << run.skip;
  expect_fits(run, 1920, 1080);
  expect_world_inside_its_edge(run);
  // The graph's switch labels read in their own colour inside the graph.
  const ScreenRect& label = run.graph.switch_label_rects[0];
  ASSERT_FALSE(label.empty());
  EXPECT_GT(test::count(run.image, label.x0, label.y0, label.x1, label.y1, test::opaque(overlay_colors::switch_line),
                        40),
            10u);
}

// The window sizes a player meets, the largest one too: after a short storm, the world stays
// inside its edge and below the score line.
void expect_world_inside_its_edge_at(int width, int height) {
  const SizedRun run = run_at(width, height, 45);
  if (!run.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << run.skip;
  ASSERT_EQ(run.image.width, width);
  EXPECT_EQ(run.clipped, 0) << run.first_clipped;
  expect_world_inside_its_edge(run);
}

TEST(OverlaySizes, At1280x720TheWorldStaysInsideItsEdge) { expect_world_inside_its_edge_at(1280, 720); }

TEST(OverlaySizes, At2560x1440TheWorldStaysInsideItsEdge) { expect_world_inside_its_edge_at(2560, 1440); }

// F11 on an X server: the 900x600 window covers the display, and the game lays itself out
// again at the display's size. Needs an X display: ctest runs it under scripts/tools/with_xvfb.
TEST(OverlaySizes, FullScreenOnAnXServerTheWorldStaysInsideItsEdge) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || display[0] == '\0') GTEST_SKIP() << "no X display (set DISPLAY, e.g. to an Xvfb)";
  const SizedRun run = run_at(900, 600, 45, true);
  if (!run.skip.empty()) GTEST_SKIP() << "no X window with GL here: " << run.skip;
  EXPECT_EQ(run.image.width, run.display.w);
  EXPECT_EQ(run.image.height, run.display.h);
  EXPECT_GT(run.image.width, 900) << "the window did not go full screen";
  EXPECT_EQ(run.clipped, 0) << run.first_clipped;
  EXPECT_EQ(run.hud_under_panel, 0);
  EXPECT_NEAR(run.panel.x1, static_cast<float>(run.image.width), 1);
  expect_world_inside_its_edge(run);
}

// The counter counts: a cell drawn into a column narrower than its text, and a header wider than
// its column, are each counted once; a cell that fits is not.
TEST(OverlaySizes, CellFitCountsACellWiderThanItsColumn) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(400, 300);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // a font atlas, built, never uploaded
  overlay_widgets::CellFit fit;
  for (int frame = 0; frame < 2; ++frame) {  // the second frame has the first's layout
    fit.reset();
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(300, 200));
    ImGui::Begin("cells");
    if (ImGui::BeginTable("t", 2, overlay_widgets::kTableFlags)) {
      overlay_widgets::columns(fit, {{"a", "99.9k"}, {"b", nullptr}});
      ImGui::TableNextRow();
      overlay_widgets::cell(fit, "99.9k");      // as wide as the column: fits
      overlay_widgets::cell(fit, "fits here");  // the stretch column has room
      ImGui::TableNextRow();
      overlay_widgets::cell(fit, "79.2k/131k");  // wider than "99.9k": clipped
      overlay_widgets::cell(fit, "");
      ImGui::EndTable();
    }
    if (ImGui::BeginTable("narrow", 1, overlay_widgets::kTableFlags)) {
      overlay_widgets::columns(fit, {{"a much longer header", "9"}});  // sized for its name: fits
      ImGui::EndTable();
    }
    ImGui::End();
    ImGui::Render();
  }
  EXPECT_EQ(fit.clipped(), 1);
  EXPECT_STREQ(fit.first(), "79.2k/131k");
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace game
