// The flow on screen, played through synthetic input on an offscreen window: the title (no
// step runs), Enter to play, Esc for the pause menu (the application's clock stops), a click
// on Resume, a death, the game-over screen with the score and the best saved to its file,
// Enter to play again. Every key goes down and up inside one frame, as a quick tap does at a
// low frame rate: the ImGui layer must still see each one.
#include "sim/atlas_cells.hpp"
#include "tests/offscreen_game.hpp"
#include "app/best_score.hpp"
#include "app/game_app.hpp"
#include "app/headless_run.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/test_support.hpp"

#include <engine/application.hpp>

#include <SDL.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

namespace game {
namespace {

namespace fs = std::filesystem;

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

Scenario one_life() {
  Scenario s = test::repo_scenario("default.json");
  s.player.lives = 1;  // a player who never fires dies within seconds
  return s;
}

struct FlowHarness {
  FlowHarness() : sim(one_life(), 1) {
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    fs::create_directories(dir);
    best = std::make_unique<BestScoreFile>((dir / "best_score.txt").string());
    engine::AppConfig config;
    config.mode = engine::RunMode::offscreen;
    config.max_frames = -1;
    config.deterministic_time = true;
    config.overlay_visible = false;  // the player's view: HUD and screens only
    config.atlas_path = POOLSHOT_ATLAS_PATH;
    config.atlas_cell_px = atlas::kCellPixels;
    app = std::make_unique<engine::Application>(config);
    init = app->init();
    game = std::make_unique<ScriptedGameApp>(sim, *app, kDefaultWarmupFrames, nullptr, false, best.get());
  }
  ~FlowHarness() { fs::remove_all(dir); }
  // A tap: down and up pushed together, so both arrive before the next frame.
  void tap(SDL_Scancode key) {
    this->key(SDL_KEYDOWN, key);
    this->key(SDL_KEYUP, key);
  }
  void key(Uint32 type, SDL_Scancode code) {
    SDL_Event e{};
    e.type = type;
    e.key.windowID = SDL_GetWindowID(app->window().sdl_window());
    e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = code;
    e.key.keysym.sym = SDL_GetKeyFromScancode(code);
    SDL_PushEvent(&e);
  }
  void mouse(Uint32 type, float x, float y) { test::push_mouse(app->window().sdl_window(), type, x, y); }

  fs::path dir = game::test::scratch_path("poolshot_flow");
  Simulation sim;
  std::unique_ptr<BestScoreFile> best;
  std::unique_ptr<engine::Application> app;
  engine::Status init;
  std::unique_ptr<ScriptedGameApp> game;
};

TEST(FlowScreens, TitlePlayPauseGameOverRestart) {
  FlowHarness h;
  if (!h.init) GTEST_SKIP() << "no offscreen GL here: " << h.init.message();
  enum Phase { title, playing, paused, resumed, dead, again, done };
  Phase phase = title;
  int phase_frame = 0;
  std::uint64_t steps_on_title = ~0ull, step_when_paused = 0, step_after_pause = 0;
  std::int64_t score_at_death = -1, hud_after_death = -2;
  bool saw_pause_on_clock = false;
  ScreenRect resume;
  h.game->script = [&](int f) {
    const FlowState s = h.game->flow().state();
    const int in_phase = f - phase_frame;
    const auto next = [&](Phase p) {
      phase = p;
      phase_frame = f;
    };
    switch (phase) {
      case title:
        if (in_phase == 10) {
          ASSERT_EQ(s, FlowState::title);
          steps_on_title = h.sim.frame();
          h.tap(SDL_SCANCODE_RETURN);
        }
        if (in_phase > 10 && s == FlowState::playing) next(playing);
        break;
      case playing:
        if (in_phase == 20) h.tap(SDL_SCANCODE_ESCAPE);
        if (in_phase > 20 && s == FlowState::paused) {
          saw_pause_on_clock = h.app->paused();
          step_when_paused = h.sim.frame();
          next(paused);
        }
        break;
      case paused:
        if (in_phase == 3) resume = h.game->button_rect("Resume");
        if (in_phase == 6) {
          ASSERT_FALSE(resume.empty()) << "the pause menu drew its Resume button";
          step_after_pause = h.sim.frame();
          const float x = (resume.x0 + resume.x1) / 2, y = (resume.y0 + resume.y1) / 2;
          h.mouse(SDL_MOUSEMOTION, x, y);
        }
        if (in_phase == 9) h.mouse(SDL_MOUSEBUTTONDOWN, (resume.x0 + resume.x1) / 2, (resume.y0 + resume.y1) / 2);
        if (in_phase == 10) h.mouse(SDL_MOUSEBUTTONUP, (resume.x0 + resume.x1) / 2, (resume.y0 + resume.y1) / 2);
        if (in_phase > 10 && s == FlowState::playing) next(resumed);
        break;
      case resumed:  // fires for 5 s (kills: a score), then never again: the enemies win
        if (in_phase == 1) h.key(SDL_KEYDOWN, SDL_SCANCODE_SPACE);
        if (in_phase == 300) h.key(SDL_KEYUP, SDL_SCANCODE_SPACE);
        if (s == FlowState::game_over) {
          score_at_death = h.sim.stats().score;
          next(dead);
        }
        break;
      case dead:
        // The game-over screen, the HUD behind it and the saved best agree,
        // frames after the end (shots in flight struck on, and earned nothing).
        if (in_phase == 9) hud_after_death = h.game->hud_score();
        if (in_phase == 10) h.tap(SDL_SCANCODE_RETURN);
        if (in_phase > 10 && s == FlowState::playing) next(again);
        break;
      case again:
        if (in_phase == 10) next(done);
        break;
      case done:
        break;
    }
  };
  h.game->frames_to_render = 4000;
  h.game->script = [inner = h.game->script, &phase, &h](int f) {
    inner(f);
    if (phase == done) h.game->frames_to_render = f + 1;
  };
  ASSERT_EQ(h.app->run(*h.game), 0);
  ASSERT_EQ(phase, done) << "stuck in phase " << phase;
  EXPECT_EQ(steps_on_title, 0u) << "no step runs on the title";
  EXPECT_TRUE(saw_pause_on_clock) << "the pause menu rests on the application's clock";
  EXPECT_EQ(step_after_pause, step_when_paused) << "paused: no steps";
  EXPECT_GT(score_at_death, 0) << "5 s of fire killed something";
  EXPECT_EQ(h.game->flow().final_score(), score_at_death);
  EXPECT_EQ(hud_after_death, score_at_death) << "the HUD kept the final score";
  EXPECT_FALSE(h.sim.game_over()) << "Enter restarted the world";
  EXPECT_EQ(h.sim.stats().restarts, 1u);
  EXPECT_FALSE(h.app->paused());
  // A new best over the empty file: saved at game over, and shown as the best since.
  EXPECT_EQ(read_best_score((h.dir / "best_score.txt").string()).best, score_at_death);
  EXPECT_EQ(h.game->flow().best_score(), score_at_death);
  EXPECT_TRUE(h.game->flow().new_best());
}

}  // namespace
}  // namespace game
