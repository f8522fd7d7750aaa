// The overlay's controls, clicked: an offscreen run of the real game where scripted mouse
// events (as a real pointer sends them) open sections and press the panel's widgets. The
// pooling checkbox switches the simulation to the heap, Pause stops the steps and resumes
// them, "Apply suggestions" puts the advisor's capacities in force; a click on the panel
// never fires the ship's gun, a click beside it does.
#include "sim/atlas_cells.hpp"
#include "tests/offscreen_game.hpp"
#include "app/game_app.hpp"
#include "app/headless_run.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/test_support.hpp"

#include <engine/application.hpp>

#include <SDL.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <type_traits>
#include <cstdlib>
#include <functional>
#include <vector>

namespace game {
namespace {

// GameApp with a script run at the start of every render (events pushed there are read at
// the start of the next frame) and a fixed number of rendered frames.
class ScriptedGameApp : public GameApp {
 public:
  using GameApp::GameApp;
  std::function<void(int frame)> script;
  int frames_to_render = 0;
  int rendered = 0;
  void render(engine::RenderContext& context) override {
    if (script) script(rendered);
    ++rendered;
    GameApp::render(context);
  }
  bool wants_quit() const override { return rendered >= frames_to_render; }
};

struct Harness {
  explicit Harness(const char* scenario, bool autofire) : sim(test::repo_scenario(scenario), 1) {
    sim.settings().autofire = autofire;
    const engine::AppConfig config = test::offscreen_game_config();  // the script decides when to stop
    app = std::make_unique<engine::Application>(config);
    init = app->init();
    game = std::make_unique<ScriptedGameApp>(sim, *app, kDefaultWarmupFrames);
  }
  void push(Uint32 type, float x, float y) { test::push_mouse(app->window().sdl_window(), type, x, y); }
  // The pointer moves onto the widget at `frame`, presses at frame + 3 (ImGui sees the hover
  // first, as with a real mouse), releases at frame + 4.
  void click_at(int now, int frame, float x, float y) {
    if (now == frame) push(SDL_MOUSEMOTION, x, y);
    if (now == frame + 3) push(SDL_MOUSEBUTTONDOWN, x, y);
    if (now == frame + 4) push(SDL_MOUSEBUTTONUP, x, y);
  }
  void click_on(int now, int frame, const char* label) {
    const ScreenRect r = game->panel().item_rect(label);
    if (now >= frame && now <= frame + 4) {
      ASSERT_FALSE(r.empty()) << label << " not drawn at frame " << now;
    }
    click_at(now, frame, (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
  }
  // Pools, Frame time and Memory start open and fill the panel: fold them (frames 2..18).
  void fold_the_open_sections(int now) {
    click_on(now, 2, "Pools");
    click_on(now, 8, "Frame time");
    click_on(now, 14, "Memory");
  }
  int run(int frames) {
    game->frames_to_render = frames;
    return app->run(*game);
  }

  Simulation sim;
  std::unique_ptr<engine::Application> app;
  engine::Status init;
  std::unique_ptr<ScriptedGameApp> game;
};

#define SKIP_WITHOUT_GL(h) \
  if (!(h).init) GTEST_SKIP() << "no offscreen GL here: " << (h).init.message()

TEST(OverlayControls, PoolingCheckboxAndPauseButtonWork) {
  Harness h("default.json", true);
  SKIP_WITHOUT_GL(h);
  std::uint64_t step_at_pause = 0, step_while_paused = 0;
  FlowState flow_while_paused = FlowState::title;
  h.game->script = [&](int f) {
    h.fold_the_open_sections(f);    // room for the sections below
    h.click_on(f, 22, "Controls");  // opens the section
    h.click_on(f, 30, "pooling");   // off
    h.click_on(f, 38, "Pause");
    if (f == 46) step_at_pause = h.sim.frame();
    if (f == 54) {
      step_while_paused = h.sim.frame();
      flow_while_paused = h.game->flow().state();
    }
    h.click_on(f, 56, "Pause");  // now labelled Resume, same place
  };
  ASSERT_EQ(h.run(78), 0);
  EXPECT_FALSE(h.sim.applied_settings().pooling) << "the checkbox reached Settings and the step applied it";
  EXPECT_FALSE(h.sim.stats().pools[0].pooled);
  EXPECT_GT(step_at_pause, 30u);
  EXPECT_EQ(step_while_paused, step_at_pause) << "paused: no steps";
  EXPECT_EQ(flow_while_paused, FlowState::paused) << "one pause: the panel's button pauses the flow, as P does";
  EXPECT_FALSE(h.app->paused());
  EXPECT_GT(h.sim.frame(), step_while_paused + 10) << "resumed";
  // With pooling off, every spawn is a new: the overlay's allocation count shows it.
  const OverlayModel m = h.game->overlay_model();
  EXPECT_FALSE(m.pooling);
  EXPECT_GT(m.window.allocations_total, 0u);
}

TEST(OverlayControls, ApplySuggestionsPutsTheAdvisorsCapacitiesInForce) {
  Harness h("pressure.json", true);
  SKIP_WITHOUT_GL(h);
  // The advice the panel shows around the click (peaks move while explosions go off): the
  // button applies the one of the frame its release lands in.
  std::vector<CapacityAdvices> shown;
  h.game->script = [&](int f) {
    h.fold_the_open_sections(f);
    h.click_on(f, 60, "Advisor");
    h.click_on(f, 70, "Apply suggestions");
    if (f >= 72 && f <= 78) shown.push_back(h.game->overlay_model().advice);
  };
  ASSERT_EQ(h.run(80), 0);
  const Settings& applied = h.sim.applied_settings();
  const SimStats stats = h.sim.stats();
  const auto in_force = [&](const CapacityAdvices& advice) {
    for (std::size_t i = 0; i < kPoolCount; ++i)
      if (applied.pools[i].initial_capacity != advice[i].suggested_initial) return false;
    return true;
  };
  ASSERT_TRUE(std::any_of(shown.begin(), shown.end(), in_force))
      << "bullets now start at " << applied.pools[0].initial_capacity;
  const Scenario original = test::repo_scenario("pressure.json");
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    EXPECT_NE(applied.pools[i].initial_capacity, original.pools[i].initial_capacity)
        << i << ": pressure.json starts small";
    EXPECT_GE(stats.pools[i].capacity, applied.pools[i].initial_capacity) << i << ": reserved at once";
  }
}

TEST(OverlayControls, AClickOnThePanelNeverFiresAClickBesideItDoes) {
  Harness h("default.json", false);  // the ship fires only when told
  SKIP_WITHOUT_GL(h);
  std::uint64_t spawns_after_panel_click = ~0ull;
  h.game->script = [&](int f) {
    const ScreenRect p = h.game->panel().panel_rect();
    if (f >= 2) h.click_at(f, 2, p.x0 + 40, p.y1 - 8);  // empty panel area near its bottom
    if (f == 12) spawns_after_panel_click = h.sim.stats().pools[0].spawns;
    h.click_at(f, 14, 300, 400);  // the playfield
  };
  ASSERT_EQ(h.run(30), 0);
  EXPECT_EQ(spawns_after_panel_click, 0u) << "ImGui kept the click on its panel";
  EXPECT_GT(h.sim.stats().pools[0].spawns, 0u) << "the click beside the panel fired";
}

// Reading the panel never costs a life: with the mouse resting on the panel and nothing held,
// the game waits (no step, no life lost, the mark shown); with fire held and the mouse still
// there it runs, so a click on OFF shows its jump at once; with the pointer gone from the
// window, or back on the playfield, it runs as before. (The offscreen driver has no X11 pointer
// cache, so the leave checks the game's side only: imgui_layer.cpp forgets the pointer on leave.)
TEST(OverlayControls, ReadingThePanelPausesTheGameUnlessFireOrMoveIsHeld) {
  Harness h("default.json", false);
  SKIP_WITHOUT_GL(h);
  std::uint64_t step_on_panel = 0, step_before_click = 0, step_read = 0, step_fire_down = 0, step_fire_held = 0,
                step_left = 0, step_back = 0;
  int lives_on_panel = -1, lives_read = -1;
  bool pooled_while_read = true, marked = false, marked_with_fire = true, marked_after = true, moved_step = false;
  bool reading_again = false, left_runs = false;
  const auto key = [&](Uint32 type, SDL_Scancode code) {
    SDL_Event e{};
    e.type = type;
    e.key.windowID = SDL_GetWindowID(h.app->window().sdl_window());
    e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = code;
    SDL_PushEvent(&e);
  };
  h.game->script = [&](int f) {
    const ScreenRect p = h.game->panel().panel_rect();
    if (f == 4) h.push(SDL_MOUSEMOTION, p.x0 + 40, p.y1 - 8);  // empty panel area near its bottom
    if (f == 8) {
      step_on_panel = h.sim.frame();
      lives_on_panel = h.sim.stats().lives;
    }
    if (f == 18) step_before_click = h.sim.frame();
    h.click_on(f, 20, "pooling switch");  // off: one step applies it, so the click shows at once
    if (f == 38) {
      pooled_while_read = h.sim.applied_settings().pooling;
      step_read = h.sim.frame();
      lives_read = h.sim.stats().lives;
      marked = h.game->reading_panel();
    }
    if (f == 40) key(SDL_KEYDOWN, SDL_SCANCODE_SPACE);
    if (f == 44) step_fire_down = h.sim.frame();
    if (f == 60) {
      step_fire_held = h.sim.frame();
      marked_with_fire = h.game->reading_panel();
    }
    if (f == 62) key(SDL_KEYUP, SDL_SCANCODE_SPACE);
    if (f == 66) key(SDL_KEYDOWN, SDL_SCANCODE_D);  // movement alone also plays on
    if (f == 70) moved_step = h.sim.frame() > step_fire_held + 5;
    if (f == 72) key(SDL_KEYUP, SDL_SCANCODE_D);
    if (f == 76) reading_again = h.game->reading_panel();
    if (f == 78) {  // the pointer leaves the window from the panel: nobody reads it
      SDL_Event e{};
      e.type = SDL_WINDOWEVENT;
      e.window.windowID = SDL_GetWindowID(h.app->window().sdl_window());
      e.window.event = SDL_WINDOWEVENT_LEAVE;
      SDL_PushEvent(&e);
    }
    if (f == 82) step_left = h.sim.frame();
    if (f == 96) left_runs = h.sim.frame() >= step_left + 10 && !h.game->reading_panel();
    if (f == 98) h.push(SDL_MOUSEMOTION, 300, 400);  // the playfield
    if (f == 102) step_back = h.sim.frame();
    if (f == 118) marked_after = h.game->reading_panel();
  };
  ASSERT_EQ(h.run(122), 0);
  EXPECT_GT(step_on_panel, 0u);
  EXPECT_EQ(step_before_click, step_on_panel) << "the mouse on the panel with nothing held: no step";
  EXPECT_LE(step_read, step_on_panel + 2) << "the click's one step, and no more";
  EXPECT_FALSE(pooled_while_read) << "the switch took effect while the game waited";
  EXPECT_EQ(lives_read, lives_on_panel);
  EXPECT_TRUE(marked) << "the pause is marked";
  EXPECT_GE(step_fire_held, step_fire_down + 14) << "fire held: the game runs with the mouse on the panel";
  EXPECT_FALSE(marked_with_fire);
  EXPECT_GT(h.sim.stats().pools[0].spawns, 0u) << "and the ship fired";
  EXPECT_TRUE(moved_step) << "movement held: the game runs";
  EXPECT_TRUE(reading_again) << "let go with the mouse on the panel: it waits again";
  EXPECT_TRUE(left_runs) << "the pointer gone from the window: the game runs";
  EXPECT_GE(h.sim.frame(), step_back + 14) << "the mouse back on the playfield: the game runs";
  EXPECT_FALSE(marked_after);
}

// The ON/OFF beside "pooling" on the panel's first line is the switch too, so the Frame time
// graph can stay open while the player flips it: off, then on again, and the heap span the
// graph compares against was recorded in between.
TEST(OverlayControls, TheHeaderSwitchTurnsPoolingOffAndOnWithFrameTimeOpen) {
  Harness h("default.json", true);
  SKIP_WITHOUT_GL(h);
  bool off_between = true;
  h.game->script = [&](int f) {
    h.click_on(f, 4, "pooling switch");  // off
    if (f == 30) off_between = !h.sim.applied_settings().pooling;
    h.click_on(f, 40, "pooling switch");  // on again, same place
  };
  ASSERT_EQ(h.run(70), 0);
  EXPECT_TRUE(off_between) << "the first click did not switch pooling off";
  EXPECT_TRUE(h.sim.applied_settings().pooling) << "the second click did not switch it back on";
  EXPECT_TRUE(h.sim.stats().pools[0].pooled);
  const OverlayModel m = h.game->overlay_model();
  EXPECT_TRUE(m.spans.heap.found) << "the frames with pooling off make a heap span";
}

// After a click on the panel, the pointer moving on to the playfield aims and fires the ship
// again. Under Xvfb with xdotool it did not: the ImGui backend read SDL's X11 global mouse
// state, a cache that XTest motion never refreshes, so ImGui went on hovering the panel where
// the click was and kept the mouse from the game (engine/src/imgui_layer.cpp now lets the last
// motion event win). The offscreen driver has no global state and no pointer focus, so this
// run cannot recreate that cache; it checks the rest of the path: the warp leaves SDL's own
// position on the panel, the pushed events move on without it, and the playfield click must
// fire bullets that leave towards it (left of the ship), none towards the panel on the right.
TEST(OverlayControls, AfterAClickOnThePanelThePointerStillAimsTheShip) {
  Harness h("default.json", false);
  SKIP_WITHOUT_GL(h);
  std::uint64_t spawns_before = ~0ull;
  bool fired_left = true;
  h.game->script = [&](int f) {
    const ScreenRect p = h.game->panel().panel_rect();
    const float px = p.x0 + 40, py = p.y1 - 8;  // empty panel area near its bottom
    if (f == 2) SDL_WarpMouseInWindow(h.app->window().sdl_window(), static_cast<int>(px), static_cast<int>(py));
    if (f == 5) h.push(SDL_MOUSEBUTTONDOWN, px, py);
    if (f == 6) h.push(SDL_MOUSEBUTTONUP, px, py);
    if (f == 10) h.push(SDL_MOUSEMOTION, 60, 80);  // the playfield's top left
    if (f == 12) h.push(SDL_MOUSEMOTION, 64, 84);
    if (f == 14) spawns_before = h.sim.stats().pools[0].spawns;
    if (f == 16) h.push(SDL_MOUSEBUTTONDOWN, 64, 84);
    if (f == 26) h.push(SDL_MOUSEBUTTONUP, 64, 84);
    if (f > 16) {
      h.sim.visit_stores([&](PoolId id, const auto& store) {
        if constexpr (std::is_same_v<std::decay_t<decltype(store)>, ObjectStore<Bullet>>) {
          if (id == PoolId::bullets) {
            store.for_each([&](const Bullet& b) {
              if (b.vel.x >= 0) fired_left = false;
            });
          }
        }
      });
    }
  };
  ASSERT_EQ(h.run(30), 0);
  EXPECT_EQ(spawns_before, 0u) << "the panel click fired";
  EXPECT_GT(h.sim.stats().pools[0].spawns, 0u) << "the playfield click after it did not fire";
  EXPECT_TRUE(fired_left) << "a bullet flew right, towards the panel click";
}

// 1280x720 with Controls opened while the Frame time figures are open, and a full growth log
// (pressure.json's small pools grow at once): the two no longer fold each other. The graph stays
// drawn above the scrolling sections, Controls opens below the figures (what does not fit
// scrolls), and nothing of the column reaches past the window or past its width.
TEST(OverlayControls, ControlsAndFrameTimeAreOpenTogetherUnderTheGraph) {
  Harness h("pressure.json", true);
  SKIP_WITHOUT_GL(h);
  ScreenRect panel, graph, export_csv, controls;
  std::size_t growth_rows = 0;
  float overflow = -1, overflow_x = -1;
  h.game->script = [&](int f) {
    h.click_on(f, 42, "Controls");  // opens Controls; Frame time stays open
    if (f == 118) {
      growth_rows = h.game->overlay_model().growth_log.size();
      export_csv = h.game->panel().item_rect("Export CSV");
      controls = h.game->panel().item_rect("Controls");
      graph = h.game->panel().graph_rect();
      panel = h.game->panel().panel_rect();
      overflow = h.game->panel().overflow();
      overflow_x = h.game->panel().overflow_x();
    }
  };
  ASSERT_EQ(h.run(120), 0);  // two seconds: pressure.json's first explosions have grown the particles
  EXPECT_GE(growth_rows, 3u) << "the growth log shows its full three rows";
  EXPECT_FALSE(export_csv.empty()) << "Frame time was folded";
  ASSERT_FALSE(controls.empty());
  EXPECT_GT(controls.y0, export_csv.y0) << "Controls opens below the Frame time figures";
  ASSERT_FALSE(graph.empty());
  EXPECT_LT(graph.y1, panel.y0 + 260) << "the graph sits at the top of the column";
  EXPECT_GT(overflow, 0.0f) << "the sections scroll under the graph";
  EXPECT_EQ(overflow_x, 0.0f);
  EXPECT_LE(panel.y1, 720.0f);
}

// A click that lands between two frames (press and release, and the pointer gone elsewhere,
// all before the next frame, as at 4 fps) still reaches the checkbox it was made on.
TEST(OverlayControls, AClickInsideOneFrameStillTogglesTheCheckbox) {
  Harness h("default.json", true);
  SKIP_WITHOUT_GL(h);
  bool pooling_before = false;
  h.game->script = [&](int f) {
    h.click_on(f, 2, "Controls");
    if (f == 10) {
      const ScreenRect r = h.game->panel().item_rect("pooling");
      ASSERT_FALSE(r.empty());
      pooling_before = h.sim.settings().pooling;
      const float x = (r.x0 + r.x1) / 2, y = (r.y0 + r.y1) / 2;
      h.push(SDL_MOUSEMOTION, x, y);
      h.push(SDL_MOUSEBUTTONDOWN, x, y);
      h.push(SDL_MOUSEBUTTONUP, x, y);
      h.push(SDL_MOUSEMOTION, 200, 300);  // off over the playfield before the frame sees it
    }
  };
  ASSERT_EQ(h.run(16), 0);
  EXPECT_TRUE(pooling_before);
  EXPECT_FALSE(h.sim.applied_settings().pooling) << "the click was lost";
}

}  // namespace
}  // namespace game
