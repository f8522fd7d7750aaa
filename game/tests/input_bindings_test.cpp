// The game's bindings (input_bindings.hpp) over the engine's device state, and the frame's
// camera (frame_camera.hpp): the engine names no verbs, so fire, restart, pause and the rest
// are tested here, through a real engine::InputMapper fed SDL events where a device has no
// SDL state to fake (keys, mouse) and through a hand-filled InputState for a pad (the SDL
// path of a pad is gamepad_game_test.cpp). The camera the steps aim through is the camera
// render draws with, in the same frame, also in the frame the overlay's panel comes or goes.
#include "sim/atlas_cells.hpp"
#include "tests/offscreen_game.hpp"
#include "app/frame_camera.hpp"
#include "app/game_app.hpp"
#include "app/headless_run.hpp"
#include "app/input_bindings.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/test_support.hpp"

#include <engine/application.hpp>
#include <engine/input.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

namespace game {
namespace {

SDL_Event key(SDL_Scancode sc, bool down, Uint16 mod = KMOD_NONE) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.type = e.type;
  e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.key.keysym.scancode = sc;
  e.key.keysym.mod = mod;
  return e;
}

SDL_Event mouse(Uint32 type, int x, int y) {
  SDL_Event e{};
  e.type = type;
  if (type == SDL_MOUSEMOTION) {
    e.motion.x = x;
    e.motion.y = y;
  } else {
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = x;
    e.button.y = y;
  }
  return e;
}

engine::Camera2D window_camera() {  // world = window pixels at zoom 1, origin at the centre
  engine::Camera2D c;
  c.viewport = {800.0f, 600.0f};
  return c;
}

TEST(InputBindings, SpaceAndTheLeftMouseButtonFire) {
  engine::InputMapper m;
  m.handle_event(key(SDL_SCANCODE_SPACE, true));
  EXPECT_TRUE(fire_held(m.state()));
  EXPECT_TRUE(step_verbs(m.state()).fire_pressed);
  EXPECT_TRUE(map_input(m.state(), window_camera(), {}).fire);
  m.clear_step_edges();  // a step saw the press: held still, pressed no more
  EXPECT_TRUE(fire_held(m.state()));
  EXPECT_FALSE(step_verbs(m.state()).fire_pressed);
  m.handle_event(key(SDL_SCANCODE_SPACE, false));
  EXPECT_FALSE(fire_held(m.state()));

  m.handle_event(mouse(SDL_MOUSEBUTTONDOWN, 500, 200));
  EXPECT_TRUE(fire_held(m.state()));
  EXPECT_TRUE(step_verbs(m.state()).fire_pressed);
  m.handle_event(mouse(SDL_MOUSEBUTTONUP, 500, 200));
  EXPECT_FALSE(map_input(m.state(), window_camera(), {}).fire);
  // Other keys are no fire.
  m.clear_step_edges();
  m.handle_event(key(SDL_SCANCODE_F, true));
  EXPECT_FALSE(fire_held(m.state()) || step_verbs(m.state()).fire_pressed);
}

TEST(InputBindings, TheRightTriggerAAndTheRightShoulderFire) {
  engine::InputState in;
  in.pads[2].connected = true;  // any slot
  in.pads[2].right_trigger = 0.4f;
  EXPECT_FALSE(fire_held(in));  // short of the threshold
  in.pads[2].right_trigger = 0.8f;
  EXPECT_TRUE(fire_held(in));
  in.step_edges.pad_triggers = 1u << SDL_CONTROLLER_AXIS_TRIGGERRIGHT;
  EXPECT_TRUE(step_verbs(in).fire_pressed);
  in.step_edges.pad_triggers = 1u << SDL_CONTROLLER_AXIS_TRIGGERLEFT;  // the left trigger is not fire
  EXPECT_FALSE(step_verbs(in).fire_pressed);

  engine::InputState buttons;
  buttons.pads[0].connected = true;
  for (SDL_GameControllerButton b : {SDL_CONTROLLER_BUTTON_A, SDL_CONTROLLER_BUTTON_RIGHTSHOULDER}) {
    buttons.pads[0].buttons = 1u << b;
    buttons.step_edges.pad_buttons = 1u << b;
    EXPECT_TRUE(fire_held(buttons)) << b;
    EXPECT_TRUE(step_verbs(buttons).fire_pressed) << b;
  }
  buttons.pads[0].connected = false;  // a pad that left fires no more
  EXPECT_FALSE(fire_held(buttons));
}

TEST(InputBindings, RAndBackRestartOnceEvenIfTappedBetweenTwoSteps) {
  engine::InputMapper m;
  m.handle_event(key(SDL_SCANCODE_R, true));
  m.handle_event(key(SDL_SCANCODE_R, false));  // pressed and released within one frame
  m.clear_frame_edges();                       // a frame with zero steps passes
  EXPECT_TRUE(map_input(m.state(), window_camera(), {}).restart);
  EXPECT_TRUE(step_verbs(m.state()).restart);
  m.clear_step_edges();  // the step that saw it
  EXPECT_FALSE(map_input(m.state(), window_camera(), {}).restart);

  engine::InputState pad;
  pad.pads[0].connected = true;
  pad.step_edges.pad_buttons = 1u << SDL_CONTROLLER_BUTTON_BACK;
  EXPECT_TRUE(map_input(pad, window_camera(), {}).restart);
  pad.step_edges.pad_buttons = 1u << SDL_CONTROLLER_BUTTON_START;  // Start pauses, not restarts
  EXPECT_FALSE(map_input(pad, window_camera(), {}).restart);
}

TEST(InputBindings, RuntimeActionsFromTheFrameEdges) {
  engine::InputMapper m;
  install_shortcut_keys(m);
  m.handle_event(key(SDL_SCANCODE_P, true));
  m.handle_event(key(SDL_SCANCODE_N, true));
  engine::RuntimeActions a = runtime_actions(m.state());
  EXPECT_TRUE(a.toggle_pause && a.single_step);
  EXPECT_FALSE(a.toggle_overlay || a.toggle_fullscreen || a.quit);
  m.clear_frame_edges();
  a = runtime_actions(m.state());
  EXPECT_FALSE(a.toggle_pause || a.single_step);  // acted on once
  m.handle_event(key(SDL_SCANCODE_ESCAPE, true));
  EXPECT_TRUE(runtime_actions(m.state()).toggle_pause);
  m.clear_frame_edges();

  // F1 and F11 work while the overlay has the keyboard; P does not reach the game then.
  const engine::InputCapture imgui_keyboard{false, true};
  m.handle_event(key(SDL_SCANCODE_F1, true), imgui_keyboard);
  m.handle_event(key(SDL_SCANCODE_F11, true), imgui_keyboard);
  m.handle_event(key(SDL_SCANCODE_P, false));
  m.handle_event(key(SDL_SCANCODE_P, true), imgui_keyboard);
  a = runtime_actions(m.state());
  EXPECT_TRUE(a.toggle_overlay && a.toggle_fullscreen);
  EXPECT_FALSE(a.toggle_pause);
  m.clear_frame_edges();

  m.handle_event(key(SDL_SCANCODE_Q, true));
  EXPECT_FALSE(runtime_actions(m.state()).quit);  // Q alone is no quit
  m.handle_event(key(SDL_SCANCODE_Q, false));
  m.handle_event(key(SDL_SCANCODE_Q, true, KMOD_LCTRL));
  EXPECT_TRUE(runtime_actions(m.state()).quit);

  engine::InputState pad;
  pad.pads[0].connected = true;
  pad.frame_edges.pad_buttons = (1u << SDL_CONTROLLER_BUTTON_START) | (1u << SDL_CONTROLLER_BUTTON_LEFTSHOULDER);
  a = runtime_actions(pad);
  EXPECT_TRUE(a.toggle_pause && a.single_step);
}

TEST(InputBindings, AutofireAndMuteAreStepToggles) {
  engine::InputMapper m;
  m.handle_event(key(SDL_SCANCODE_T, true));
  m.handle_event(key(SDL_SCANCODE_M, true));
  StepVerbs v = step_verbs(m.state());
  EXPECT_TRUE(v.toggle_autofire && v.toggle_mute);
  m.clear_step_edges();
  v = step_verbs(m.state());
  EXPECT_FALSE(v.toggle_autofire || v.toggle_mute);
}

TEST(InputBindings, WasdAndArrowsMoveInWorldAxesAndDiagonalsAreNotFaster) {
  engine::InputMapper m;
  m.handle_event(key(SDL_SCANCODE_W, true));
  EXPECT_FLOAT_EQ(map_input(m.state(), window_camera(), {}).move_y, 1.0f);  // W = up = +y
  m.handle_event(key(SDL_SCANCODE_D, true));
  Input in = map_input(m.state(), window_camera(), {});
  EXPECT_NEAR(std::hypot(in.move_x, in.move_y), 1.0f, 1e-6f);
  EXPECT_GT(in.move_x, 0.0f);
  m.handle_event(key(SDL_SCANCODE_W, false));
  m.handle_event(key(SDL_SCANCODE_D, false));
  m.handle_event(key(SDL_SCANCODE_LEFT, true));
  EXPECT_FLOAT_EQ(map_input(m.state(), window_camera(), {}).move_x, -1.0f);
  m.handle_event(key(SDL_SCANCODE_RIGHT, true));  // opposite keys cancel
  EXPECT_FLOAT_EQ(map_input(m.state(), window_camera(), {}).move_x, 0.0f);
}

TEST(InputBindings, TheMouseAimsThroughTheCameraAndTheStickFromTheShip) {
  engine::InputMapper m;
  const Vec2 player{100, 50};
  EXPECT_FLOAT_EQ(map_input(m.state(), window_camera(), player).aim.y, 50 + kStickAimDistance);  // nothing aimed yet
  m.handle_event(mouse(SDL_MOUSEMOTION, 500, 200));
  const Input in = map_input(m.state(), window_camera(), player);
  EXPECT_FLOAT_EQ(in.aim.x, 100.0f);  // 100 px right of the window's centre
  EXPECT_FLOAT_EQ(in.aim.y, 100.0f);  // 100 px above it: +y

  engine::InputState stick;
  stick.last_pointer = engine::PointerDevice::right_stick;
  stick.right_stick_direction = {-1.0f, 0.0f};
  EXPECT_FLOAT_EQ(map_input(stick, window_camera(), player).aim.x, 100 - kStickAimDistance);
}

// The camera is a pure function of the window, the playfield and the world.
TEST(FrameCamera, TheWorldFitsThePlayfieldBesideThePanel) {
  const glm::ivec2 window{1280, 720};
  const ScreenRect field = playfield_rect(window, 480.0f);
  EXPECT_FLOAT_EQ(field.x1, 800.0f);
  EXPECT_FLOAT_EQ(field.y1, 720.0f);
  const Rect world{{0, 0}, {1000, 600}};
  const engine::Camera2D camera = fit_camera(window, field, world);
  EXPECT_FLOAT_EQ(camera.viewport.x, 1280.0f);  // it spans the window: pixels map one way for all
  EXPECT_FLOAT_EQ(camera.zoom, 0.8f);           // min(800 / 1000, 720 / 600)
  const glm::vec2 centre = camera.world_to_screen({500.0f, 300.0f});
  EXPECT_NEAR(centre.x, 400.0f, 1e-3f);  // the playfield's centre, not the window's
  EXPECT_NEAR(centre.y, 360.0f, 1e-3f);
  EXPECT_NEAR(camera.world_to_screen({1000.0f, 300.0f}).x, 800.0f, 1e-3f);  // right edge at the panel

  // The mouse aims through that very camera: a pointer on the world's right edge aims there.
  engine::InputMapper m;
  m.handle_event(mouse(SDL_MOUSEMOTION, 800, 360));
  const Input in = map_input(m.state(), camera, {});
  EXPECT_NEAR(in.aim.x, 1000.0f, 1e-2f);
  EXPECT_NEAR(in.aim.y, 300.0f, 1e-2f);

  const engine::Camera2D whole = fit_camera(window, playfield_rect(window, 0.0f), world);  // panel hidden
  EXPECT_FLOAT_EQ(whole.zoom, 1.2f);
}

// GameApp in an offscreen run: every step's camera (the one map_input aims through) is the
// camera render draws with in that frame, including the frame F1 hides the panel in.
class RecordingGameApp : public GameApp {
 public:
  using GameApp::GameApp;
  std::vector<engine::Camera2D> step_cameras, render_cameras;
  std::vector<Vec2> step_aims;
  std::vector<glm::vec2> render_pointers;
  int rendered = 0;
  void fixed_update(const engine::InputState& input, double dt) override {
    step_cameras.push_back(app().camera());
    step_aims.push_back(map_input(input, app().camera(), {}).aim);
    GameApp::fixed_update(input, dt);
  }
  void render(engine::RenderContext& context) override {
    render_cameras.push_back(context.camera);
    render_pointers.push_back(context.input.pointer);
    ++rendered;
    SDL_Event e{};
    if (rendered == 2) e = mouse(SDL_MOUSEMOTION, 200, 300);  // over the playfield
    if (rendered == 4) e = key(SDL_SCANCODE_F1, true);        // read at the start of frame 5
    if (e.type != 0) SDL_PushEvent(&e);
    GameApp::render(context);
  }
  bool wants_quit() const override { return rendered >= 8; }
  engine::Application& app() { return *app_ptr; }
  engine::Application* app_ptr = nullptr;
};

TEST(FrameCamera, StepsAimThroughTheCameraRenderDrawsWithInTheSameFrame) {
  Simulation sim(test::repo_scenario("default.json"), 1);
  const engine::AppConfig config = test::offscreen_game_config();
  engine::Application app(config);
  if (const engine::Status s = app.init(); !s) GTEST_SKIP() << "no offscreen GL here: " << s.message();
  RecordingGameApp game(sim, app, kDefaultWarmupFrames);
  game.app_ptr = &app;
  ASSERT_EQ(app.run(game), 0);
  ASSERT_EQ(game.step_cameras.size(), 8u);
  ASSERT_EQ(game.render_cameras.size(), 9u);  // the quitting frame runs no step but is drawn
  for (std::size_t f = 0; f < game.step_cameras.size(); ++f) {
    const engine::Camera2D& a = game.step_cameras[f];
    const engine::Camera2D& b = game.render_cameras[f];
    EXPECT_EQ(a.zoom, b.zoom) << "frame " << f;
    EXPECT_EQ(a.center, b.center) << "frame " << f;
    EXPECT_EQ(a.viewport, b.viewport) << "frame " << f;
    // The world point the step aimed at is the one under the pointer as this frame is drawn.
    const glm::vec2 drawn = b.screen_to_world(game.render_pointers[f]);
    if (f >= 2) {
      EXPECT_EQ((glm::vec2{game.step_aims[f].x, game.step_aims[f].y}), drawn) << "frame " << f;
    }
  }
  // F1 (frame 4) hid the panel: the playfield widened and the camera with it, from frame 4 on.
  EXPECT_GT(game.render_cameras[4].zoom, game.render_cameras[3].zoom);
  EXPECT_FALSE(app.overlay_visible());
}

}  // namespace
}  // namespace game
