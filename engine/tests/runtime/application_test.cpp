#include <engine/application.hpp>

#include "gl_test_support.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <fstream>
#include <functional>
#include <vector>

namespace {

using engine::AppConfig;
using engine::Application;
using engine::InputState;
using engine::RunMode;
using test_support::Rgb;

constexpr int kWidth = 320;
constexpr int kHeight = 240;
constexpr Rgb kBackground{12, 14, 20};  // AppConfig's default clear colour

// A stand-in game: records what the runtime gives it, draws a fixed scene, and lets each
// test script events per rendered frame.
struct ScriptedGame : engine::AppHooks {
  std::vector<InputState> step_inputs;     // one per fixed_update
  std::vector<std::uint64_t> step_frames;  // the frame each step ran in
  std::vector<double> step_dts;
  int renders = 0;
  int imgui_calls = 0;
  int quit_after_renders = -1;
  int quit_after_steps = -1;
  float last_alpha = -1.0f;
  Application* app = nullptr;
  std::function<void(int render_index)> on_render;  // runs before the frame's sprites

  void fixed_update(const InputState& input, double dt) override {
    step_inputs.push_back(input);
    step_frames.push_back(app != nullptr ? app->frame_index() : 0);
    step_dts.push_back(dt);
  }
  // A stand-in game's own bindings: the engine names no keys.
  engine::RuntimeActions runtime_actions(const InputState& input) override {
    engine::RuntimeActions a;
    a.toggle_pause = input.frame_edges.key(SDL_SCANCODE_P) || input.frame_edges.key(SDL_SCANCODE_ESCAPE);
    a.single_step = input.frame_edges.key(SDL_SCANCODE_N);
    a.toggle_overlay = input.frame_edges.key(SDL_SCANCODE_F1);
    return a;
  }
  void place_camera(engine::Camera2D& camera, glm::ivec2 /*window_size*/) override {
    camera.center = {kWidth / 2.0f, kHeight / 2.0f};  // world = window pixels, y up
  }
  void render(engine::RenderContext& context) override {
    if (on_render) on_render(renders);
    ++renders;
    last_alpha = context.alpha;
    engine::Sprite red;
    red.x = 60;
    red.y = kHeight - 60;  // screen (60, 60)
    red.width = red.height = 40;
    red.color = engine::rgba(255, 0, 0);
    context.sprites.push(red);
    // Moves one pixel per step, so frames after different step counts differ.
    engine::Sprite mover = red;
    mover.x = 40.0f + static_cast<float>(step_inputs.size());
    mover.y = 20;
    mover.width = mover.height = 8;
    mover.color = engine::rgba(255, 255, 255);
    context.sprites.push(mover);
    engine::Sprite glow = red;
    glow.blend = engine::BlendMode::additive;
    glow.color = engine::rgba(0, 100, 0);
    glow.x = 240;
    glow.y = kHeight - 60;
    context.sprites.push(glow);
    glow.x = 260;
    context.sprites.push(glow);
  }
  void imgui() override {
    ++imgui_calls;
    ImGui::SetNextWindowPos(ImVec2(100, 140));
    ImGui::SetNextWindowSize(ImVec2(120, 80));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(1.0f, 0.0f, 1.0f, 1.0f));
    ImGui::Begin("overlay probe", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
    ImGui::Text("step %zu", step_inputs.size());  // text that changes with the simulation
    ImGui::End();
    ImGui::PopStyleColor();
  }
  bool wants_quit() const override {
    if (quit_after_renders >= 0 && renders >= quit_after_renders) return true;
    return quit_after_steps >= 0 && static_cast<int>(step_inputs.size()) >= quit_after_steps;
  }
};

AppConfig offscreen_config() {
  test_support::use_offscreen_video();
  AppConfig config;
  config.mode = RunMode::offscreen;
  config.width = kWidth;
  config.height = kHeight;
  config.vsync = false;
  config.deterministic_time = true;
  const char* src = std::getenv("POOLSHOT_SOURCE_DIR");
  if (src != nullptr) config.asset_dir = std::string(src) + "/assets";
  return config;
}

// Runs the game; skips the calling test when no GL context exists at all.
#define RUN_OR_SKIP(app, game, code)                                                    \
  do {                                                                                  \
    const engine::Status poolshot_init = (app).init();                                  \
    if (!poolshot_init && poolshot_init.message().find("OpenGL") != std::string::npos)  \
      GTEST_SKIP() << "no GL context can be created here: " << poolshot_init.message(); \
    ASSERT_TRUE(poolshot_init) << poolshot_init.message();                              \
    (game).app = &(app);                                                                \
    (code) = (app).run(game);                                                           \
  } while (0)

SDL_Event key_event(SDL_Scancode sc, bool down) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.keysym.scancode = sc;
  e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
  return e;
}
void push_key(SDL_Scancode sc) {
  SDL_Event down = key_event(sc, true);
  SDL_Event up = key_event(sc, false);
  SDL_PushEvent(&down);
  SDL_PushEvent(&up);
}

std::string read_bytes(const std::string& path) {
  std::string bytes;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    char chunk[4096];
    std::size_t got = 0;
    while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.append(chunk, got);
    std::fclose(f);
  }
  return bytes;
}

engine::Image load(const std::string& path) {
  engine::Image img;
  const engine::Status s = engine::load_png(path, img);
  EXPECT_TRUE(s) << s.message();
  return img;
}

#define EXPECT_PIXEL(img, x, y, expected)                                    \
  EXPECT_TRUE(test_support::near(test_support::rgb_at(img, x, y), expected)) \
      << "pixel (" << (x) << "," << (y) << ") is " << test_support::to_string(test_support::rgb_at(img, x, y))

// ---------------------------------------------------------------- offscreen

// (The runtime has no headless mode: a game's headless run is its own step loop, e.g.
// game::StepLoop. What the headless tests pinned, the stop rules, holds offscreen.)
TEST(ApplicationOffscreen, StopsWhenTheGameWantsToQuit) {
  AppConfig config = offscreen_config();
  Application app(config);
  ScriptedGame game;
  game.quit_after_steps = 7;
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(game.step_inputs.size(), 7u);
  EXPECT_EQ(app.sim_steps(), 7u);
}

TEST(ApplicationOffscreen, ZeroFramesRunsNoStep) {
  AppConfig config = offscreen_config();
  config.max_frames = 0;
  Application app(config);
  ScriptedGame game;
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  EXPECT_TRUE(game.step_inputs.empty());
}

TEST(ApplicationOffscreen, ScreenshotShowsSpritesAndTheOverlay) {
  AppConfig config = offscreen_config();
  config.max_frames = 3;
  config.screenshot_path = test_support::temp_path("app.png");
  std::remove(config.screenshot_path.c_str());
  Application app(config);
  ScriptedGame game;
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(game.step_inputs.size(), 3u);
  EXPECT_EQ(game.renders, 3);  // deterministic: one step per rendered frame
  EXPECT_GT(game.imgui_calls, 0);
  EXPECT_FLOAT_EQ(game.last_alpha, 1.0f);
  const engine::Image img = load(config.screenshot_path);
  ASSERT_EQ(img.width, kWidth);
  ASSERT_EQ(img.height, kHeight);
  EXPECT_PIXEL(img, 60, 60, (Rgb{255, 0, 0}));      // the red sprite
  EXPECT_PIXEL(img, 10, 120, kBackground);          // nothing there
  EXPECT_PIXEL(img, 230, 60, (Rgb{12, 114, 20}));   // one additive sprite
  EXPECT_PIXEL(img, 250, 60, (Rgb{12, 214, 20}));   // two overlapping: brighter
  EXPECT_PIXEL(img, 200, 210, (Rgb{255, 0, 255}));  // the overlay window
  ASSERT_NE(app.stats().latest(), nullptr);
  // Default RenderPath::fast: every sprite here is small enough to stamp, so one image for the
  // alpha group and one for the additive group: 2 draws, as instanced (one per group). The
  // next test shows they were stamped.
  EXPECT_EQ(app.renderer().path(), engine::RenderPath::fast);
  EXPECT_EQ(app.stats().latest()->counters.draw_calls, 2u);
  EXPECT_EQ(app.stats().latest()->counters.sprites, 4u);
  EXPECT_EQ(app.stats().size(), 3u);
}

TEST(ApplicationOffscreen, ConfigChoosesTheRenderPathAndTheGameMaySwitchIt) {
  AppConfig config = offscreen_config();
  config.max_frames = 4;
  config.render_path = engine::RenderPath::instanced;
  config.screenshot_path = test_support::temp_path("paths.png");
  Application app(config);
  ScriptedGame game;
  std::vector<engine::RenderPath> seen;
  std::vector<std::uint32_t> splatted;  // the previous frame's, as the hook sees it
  game.on_render = [&](int render_index) {
    seen.push_back(app.renderer().path());
    splatted.push_back(app.renderer().last_counters().splatted);
    if (render_index == 1) app.renderer().set_path(engine::RenderPath::fast);  // from a hook, mid-run
  };
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0], engine::RenderPath::instanced);
  EXPECT_EQ(seen[2], engine::RenderPath::fast);
  EXPECT_EQ(splatted[1], 0u);  // frame 0: instanced
  EXPECT_EQ(splatted[2], 4u);  // frame 1, switched in its hook: fast, every sprite stamped
  const engine::Image img = load(config.screenshot_path);
  EXPECT_PIXEL(img, 60, 60, (Rgb{255, 0, 0}));
  EXPECT_PIXEL(img, 250, 60, (Rgb{12, 214, 20}));
}

TEST(ApplicationOffscreen, AutoRenderPathIsChosenFromTheGlRendererAtInit) {
  AppConfig config = offscreen_config();
  config.max_frames = 2;
  config.render_path = engine::RenderPath::instanced;  // ignored: auto decides
  config.auto_render_path = true;
  Application app(config);
  EXPECT_STREQ(app.render_path_info().gl_renderer, "") << "no GL before init()";
  ScriptedGame game;
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  // Read after run() has shut the window down, as a report is written.
  const engine::RenderPathInfo info = app.render_path_info();
  EXPECT_TRUE(info.chosen_by_auto);
  ASSERT_STRNE(info.gl_renderer, "");
  EXPECT_EQ(info.path, engine::choose_render_path(info.gl_renderer)) << info.gl_renderer;
  if (engine::is_software_renderer(info.gl_renderer)) {
    EXPECT_EQ(info.path, engine::RenderPath::fast);
  }
}

TEST(ApplicationOffscreen, WithoutAutoTheConfigsRenderPathStandsWhateverTheGl) {
  AppConfig config = offscreen_config();
  config.max_frames = 1;
  config.render_path = engine::RenderPath::instanced;
  Application app(config);
  ScriptedGame game;
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  EXPECT_FALSE(app.render_path_info().chosen_by_auto);
  EXPECT_EQ(app.render_path_info().path, engine::RenderPath::instanced);
  EXPECT_STRNE(app.render_path_info().gl_renderer, "");
}

TEST(ApplicationOffscreen, DeterministicFramesAreBitIdenticalRunToRun) {
  std::string shots[3];
  const std::int64_t frames[3] = {20, 20, 21};
  for (int run = 0; run < 3; ++run) {
    AppConfig config = offscreen_config();
    config.max_frames = frames[run];
    config.screenshot_path = test_support::temp_path("det" + std::to_string(run) + ".png");
    Application app(config);
    ScriptedGame game;
    int code = -1;
    RUN_OR_SKIP(app, game, code);
    ASSERT_EQ(code, 0);
    shots[run] = read_bytes(config.screenshot_path);
    ASSERT_FALSE(shots[run].empty());
  }
  EXPECT_TRUE(shots[0] == shots[1]) << "two runs of 20 frames gave different PNG bytes";
  EXPECT_FALSE(shots[0] == shots[2]) << "one more step must change the picture (the check can fail)";
}

TEST(ApplicationOffscreen, PauseAndSingleStepFromTheKeyboard) {
  AppConfig config = offscreen_config();
  Application app(config);
  ScriptedGame game;
  game.quit_after_renders = 10;
  // Keys pushed during frame N's render are read at the start of frame N+1.
  game.on_render = [](int frame) {
    if (frame == 2) push_key(SDL_SCANCODE_P);       // pause from frame 3
    if (frame == 5) push_key(SDL_SCANCODE_N);       // one step in frame 6
    if (frame == 7) push_key(SDL_SCANCODE_ESCAPE);  // resume from frame 8
  };
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(game.step_frames, (std::vector<std::uint64_t>{0, 1, 2, 6, 8, 9}));
  ASSERT_EQ(game.step_inputs.size(), 6u);
  EXPECT_TRUE(game.step_inputs[3].paused);  // the single step runs while paused
  EXPECT_FALSE(game.step_inputs[4].paused);
}

TEST(ApplicationOffscreen, AKeyPressReachesExactlyOneStep) {
  AppConfig config = offscreen_config();
  Application app(config);
  ScriptedGame game;
  game.quit_after_renders = 6;
  game.on_render = [](int frame) {
    SDL_Event e;
    if (frame == 1) {
      e = key_event(SDL_SCANCODE_SPACE, true);
      SDL_PushEvent(&e);
    }
    if (frame == 3) {
      e = key_event(SDL_SCANCODE_SPACE, false);
      SDL_PushEvent(&e);
    }
  };
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  ASSERT_EQ(game.step_inputs.size(), 6u);
  EXPECT_FALSE(game.step_inputs[1].key(SDL_SCANCODE_SPACE));
  EXPECT_TRUE(game.step_inputs[2].key(SDL_SCANCODE_SPACE));
  EXPECT_TRUE(game.step_inputs[2].step_edges.key(SDL_SCANCODE_SPACE));
  EXPECT_TRUE(game.step_inputs[3].key(SDL_SCANCODE_SPACE));
  EXPECT_FALSE(game.step_inputs[3].step_edges.key(SDL_SCANCODE_SPACE));  // held, not pressed again
  EXPECT_FALSE(game.step_inputs[4].key(SDL_SCANCODE_SPACE));
}

TEST(ApplicationOffscreen, F1HidesTheOverlay) {
  AppConfig config = offscreen_config();
  Application app(config);
  ScriptedGame game;
  game.quit_after_renders = 5;
  game.on_render = [](int frame) {
    if (frame == 1) push_key(SDL_SCANCODE_F1);
  };
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(game.imgui_calls, 2);  // frames 0 and 1
  EXPECT_FALSE(app.overlay_visible());
}

// F11's way in (AppHooks asks, Application::set_fullscreen): the window takes its display's
// size, and the frames after it are drawn at that size: the GL viewport, the camera's viewport
// and ImGui's display all follow. Leaving gives the window its size back, and the frames follow.
TEST(ApplicationOffscreen, FullscreenTakesTheDisplaysSizeAndTheFramesFollow) {
  AppConfig config = offscreen_config();
  Application app(config);
  ScriptedGame game;
  game.quit_after_renders = 9;
  struct Seen {
    glm::ivec2 window, drawable, viewport, camera, imgui;
  };
  std::vector<Seen> seen;
  SDL_Rect display{};
  game.on_render = [&](int frame) {
    if (frame == 1) {
      SDL_GetDisplayBounds(SDL_GetWindowDisplayIndex(app.window().sdl_window()), &display);
      app.set_fullscreen(true);
    }
    if (frame == 5) app.set_fullscreen(false);
    const ImVec2 imgui = ImGui::GetIO().DisplaySize;  // as the last frame's NewFrame read it
    seen.push_back({app.window().window_size(), app.window().drawable_size(), app.viewport(),
                    glm::ivec2(app.camera().viewport),
                    glm::ivec2(static_cast<int>(imgui.x), static_cast<int>(imgui.y))});
  };
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  ASSERT_GE(seen.size(), 9u);
  ASSERT_GT(display.w, 0);
  const glm::ivec2 full(display.w, display.h), windowed(kWidth, kHeight);
  // Frame 4 renders after three full frames in fullscreen; frame 8 after three back in a window.
  for (const auto& [frame, size] : {std::pair{4, full}, std::pair{8, windowed}}) {
    const Seen& s = seen[static_cast<std::size_t>(frame)];
    EXPECT_EQ(s.window, size) << "frame " << frame;
    EXPECT_EQ(s.drawable, size) << "frame " << frame;
    EXPECT_EQ(s.viewport, size) << "frame " << frame << ": the GL viewport of the frame before";
    EXPECT_EQ(s.camera, size) << "frame " << frame;
    EXPECT_EQ(s.imgui, size) << "frame " << frame << ": ImGui's display";
  }
  EXPECT_FALSE(app.fullscreen());
}

TEST(ApplicationOffscreen, AClickOnTheOverlayDoesNotFireAClickBesideItDoes) {
  AppConfig config = offscreen_config();
  Application app(config);
  ScriptedGame game;
  game.quit_after_renders = 12;
  // Scripted pointer: motion events, as a real mouse would send them.
  game.on_render = [&app](int frame) {
    const Uint32 window_id = SDL_GetWindowID(app.window().sdl_window());
    SDL_Event e{};
    auto move_to = [&e, window_id](int x, int y) {
      e = SDL_Event{};
      e.type = SDL_MOUSEMOTION;
      e.motion.windowID = window_id;
      e.motion.x = x;
      e.motion.y = y;
      SDL_PushEvent(&e);
    };
    auto click_at = [&e, window_id](int x, int y) {
      e = SDL_Event{};
      e.type = SDL_MOUSEBUTTONDOWN;
      e.button.windowID = window_id;
      e.button.button = SDL_BUTTON_LEFT;
      e.button.state = SDL_PRESSED;
      e.button.x = x;
      e.button.y = y;
      SDL_PushEvent(&e);
    };
    if (frame == 1) move_to(150, 170);  // over the overlay window (100..220, 140..220)
    if (frame == 4) click_at(150, 170);
    if (frame == 6) move_to(40, 40);  // away from it
    if (frame == 9) click_at(40, 40);
  };
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  ASSERT_EQ(game.step_inputs.size(), 12u);
  for (int i = 0; i < 9; ++i) {
    EXPECT_FALSE(game.step_inputs[static_cast<std::size_t>(i)].mouse_button(SDL_BUTTON_LEFT)) << "step " << i;
  }
  const InputState& click = game.step_inputs[10];
  EXPECT_TRUE(click.step_edges.mouse_button(SDL_BUTTON_LEFT));
  EXPECT_EQ(click.last_pointer, engine::PointerDevice::mouse);
  EXPECT_FLOAT_EQ(click.pointer.x, 40.0f);
  // Through the camera the game placed (world = pixels, y up), as the steps and render saw it.
  const glm::vec2 world = app.camera().screen_to_world(click.pointer);
  EXPECT_FLOAT_EQ(world.x, 40.0f);
  EXPECT_FLOAT_EQ(world.y, kHeight - 40.0f);
}

TEST(ApplicationOffscreen, TheGameCanAskForAScreenshotMidRun) {
  AppConfig config = offscreen_config();
  Application app(config);
  ScriptedGame game;
  game.quit_after_renders = 3;
  const std::string path = test_support::temp_path("mid.png");
  std::remove(path.c_str());
  game.on_render = [&app, &path](int frame) {
    if (frame == 1) app.request_screenshot(path);
  };
  int code = -1;
  RUN_OR_SKIP(app, game, code);
  EXPECT_EQ(code, 0);
  EXPECT_PIXEL(load(path), 60, 60, (Rgb{255, 0, 0}));
}

// ---------------------------------------------------------------- failures: one line, exit 1

int run_capturing_stderr(AppConfig config, std::string& err) {
  Application app(std::move(config));
  ScriptedGame game;
  testing::internal::CaptureStderr();
  const int code = app.run(game);
  err = testing::internal::GetCapturedStderr();
  return code;
}

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(ApplicationFailure, NoDisplayIsOneLineAndExitCodeOne) {
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  unsetenv("SDL_VIDEODRIVER");
  AppConfig config;  // windowed
  std::string err;
  EXPECT_EQ(run_capturing_stderr(config, err), 1);
  EXPECT_EQ(count_lines(err), 1) << err;
  EXPECT_EQ(err.rfind("poolshot: no display found; run with --headless", 0), 0u) << err;
  EXPECT_EQ(SDL_WasInit(SDL_INIT_EVERYTHING), 0u);  // everything opened was closed again
}

TEST(ApplicationFailure, MissingShadersNameTheFile) {
  AppConfig config = offscreen_config();
  config.asset_dir = "/no/such/assets";
  std::string err;
  EXPECT_EQ(run_capturing_stderr(config, err), 1);
  EXPECT_NE(err.find("/no/such/assets/shaders/sprite.vert"), std::string::npos) << err;
  EXPECT_EQ(count_lines(err), 1) << err;
}

TEST(ApplicationFailure, AnAtlasThatIsNotAPngNamesTheFile) {
  AppConfig config = offscreen_config();
  config.atlas_path = test_support::temp_path("atlas.txt");
  std::ofstream(config.atlas_path) << "not an image";
  std::string err;
  EXPECT_EQ(run_capturing_stderr(config, err), 1);
  EXPECT_NE(err.find(config.atlas_path), std::string::npos) << err;
  EXPECT_NE(err.find("not a PNG"), std::string::npos) << err;
}

TEST(ApplicationFailure, AnUnwritableScreenshotFailsTheRun) {
  AppConfig config = offscreen_config();
  config.max_frames = 1;
  config.screenshot_path = "/no/such/dir/shot.png";
  std::string err;
  const int code = run_capturing_stderr(config, err);
  if (err.find("cannot create an OpenGL") != std::string::npos) GTEST_SKIP() << err;
  EXPECT_EQ(code, 1);
  EXPECT_NE(err.find("/no/such/dir/shot.png"), std::string::npos) << err;
}

}  // namespace
