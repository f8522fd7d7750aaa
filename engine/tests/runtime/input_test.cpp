#include <engine/imgui_layer.hpp>
#include <engine/input.hpp>

#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>

namespace {

using engine::InputCapture;
using engine::InputMapper;
using engine::InputState;

SDL_Event key(SDL_Scancode sc, bool down, bool repeat = false, Uint16 mod = KMOD_NONE) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.type = e.type;
  e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.key.repeat = repeat ? 1 : 0;
  e.key.keysym.scancode = sc;
  e.key.keysym.mod = mod;
  return e;
}

SDL_Event mouse_button(Uint8 button, bool down, int x = 0, int y = 0) {
  SDL_Event e{};
  e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  e.button.type = e.type;
  e.button.button = button;
  e.button.x = x;
  e.button.y = y;
  return e;
}

SDL_Event mouse_motion(int x, int y) {
  SDL_Event e{};
  e.type = SDL_MOUSEMOTION;
  e.motion.x = x;
  e.motion.y = y;
  return e;
}

engine::Camera2D camera() {
  engine::Camera2D c;
  c.viewport = {800.0f, 600.0f};
  return c;
}

InputState state_of(const InputMapper& m) { return m.state(camera()); }

constexpr InputCapture captured_keyboard{false, true};
constexpr InputCapture captured_mouse{true, false};

TEST(InputMapper, WasdMovesInWorldAxesAndDiagonalsAreNotFaster) {
  InputMapper m;
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_W, true)));
  EXPECT_FLOAT_EQ(state_of(m).move.y, 1.0f);  // W = up = +y in the world
  m.handle_event(key(SDL_SCANCODE_D, true));
  const glm::vec2 diagonal = state_of(m).move;
  EXPECT_NEAR(std::hypot(diagonal.x, diagonal.y), 1.0f, 1e-6f);
  EXPECT_GT(diagonal.x, 0.0f);
  m.handle_event(key(SDL_SCANCODE_W, false));
  m.handle_event(key(SDL_SCANCODE_D, false));
  m.handle_event(key(SDL_SCANCODE_LEFT, true));
  EXPECT_FLOAT_EQ(state_of(m).move.x, -1.0f);
  m.handle_event(key(SDL_SCANCODE_RIGHT, true));  // opposite keys cancel
  EXPECT_FLOAT_EQ(state_of(m).move.x, 0.0f);
}

TEST(InputMapper, FireIsHeldAndItsEdgeIsSeenByOneStep) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_SPACE, true));
  InputState s = state_of(m);
  EXPECT_TRUE(s.fire);
  EXPECT_TRUE(s.fire_pressed);
  m.clear_step_edges();  // a fixed step has seen it
  s = state_of(m);
  EXPECT_TRUE(s.fire);
  EXPECT_FALSE(s.fire_pressed);
  m.handle_event(key(SDL_SCANCODE_SPACE, true, /*repeat=*/true));  // auto-repeat is no new press
  EXPECT_FALSE(state_of(m).fire_pressed);
  m.handle_event(key(SDL_SCANCODE_SPACE, false));
  EXPECT_FALSE(state_of(m).fire);
}

TEST(InputMapper, EdgesLatchUntilAStepConsumesThem) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_R, true));
  m.handle_event(key(SDL_SCANCODE_R, false));  // pressed and released within one frame
  m.clear_frame_edges();                       // a frame with zero steps passes
  EXPECT_TRUE(state_of(m).restart_pressed);    // still waiting for a step
  m.clear_step_edges();
  EXPECT_FALSE(state_of(m).restart_pressed);
}

TEST(InputMapper, RuntimeKeysMapToTheirActions) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_P, true));
  m.handle_event(key(SDL_SCANCODE_N, true));
  m.handle_event(key(SDL_SCANCODE_F1, true));
  m.handle_event(key(SDL_SCANCODE_F11, true));
  InputState s = state_of(m);
  EXPECT_TRUE(s.pause_pressed);
  EXPECT_TRUE(s.step_pressed);
  EXPECT_TRUE(s.overlay_pressed);
  EXPECT_TRUE(s.fullscreen_pressed);
  EXPECT_FALSE(s.quit_requested);
  m.clear_frame_edges();
  s = state_of(m);
  EXPECT_FALSE(s.pause_pressed || s.step_pressed || s.overlay_pressed || s.fullscreen_pressed);
  m.handle_event(key(SDL_SCANCODE_ESCAPE, true));
  EXPECT_TRUE(state_of(m).pause_pressed);
}

TEST(InputMapper, QuitNeedsCtrlQOrAWindowClose) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_Q, true));
  EXPECT_FALSE(state_of(m).quit_requested);
  m.handle_event(key(SDL_SCANCODE_Q, true, false, KMOD_LCTRL));
  EXPECT_TRUE(state_of(m).quit_requested);
  m.clear_frame_edges();
  EXPECT_TRUE(state_of(m).quit_requested);  // quitting is not undone by a frame passing
  InputMapper m2;
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  m2.handle_event(quit);
  EXPECT_TRUE(state_of(m2).quit_requested);
}

TEST(InputMapper, MouseAimsAtTheWorldPointUnderThePointer) {
  InputMapper m;
  EXPECT_EQ(state_of(m).aim_source, engine::AimSource::none);
  m.handle_event(mouse_motion(500, 200));
  const InputState s = state_of(m);
  EXPECT_EQ(s.aim_source, engine::AimSource::mouse);
  EXPECT_FLOAT_EQ(s.pointer_screen.x, 500.0f);
  EXPECT_FLOAT_EQ(s.aim_point.x, 100.0f);  // 100 px right of the centre
  EXPECT_FLOAT_EQ(s.aim_point.y, 100.0f);  // 100 px above the centre: +y
  m.handle_event(mouse_button(SDL_BUTTON_LEFT, true, 500, 200));
  EXPECT_TRUE(state_of(m).fire);
  EXPECT_TRUE(state_of(m).fire_pressed);
  m.handle_event(mouse_button(SDL_BUTTON_LEFT, false, 500, 200));
  EXPECT_FALSE(state_of(m).fire);
}

TEST(InputMapper, KeyboardCapturedByImGuiDoesNotReachTheGame) {
  InputMapper m;
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_W, true), captured_keyboard));
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_SPACE, true), captured_keyboard));
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_P, true), captured_keyboard));
  const InputState s = state_of(m);
  EXPECT_FLOAT_EQ(s.move.y, 0.0f);
  EXPECT_FALSE(s.fire || s.fire_pressed || s.pause_pressed);
  // The mouse is not the keyboard: a click still fires.
  EXPECT_TRUE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, true), captured_keyboard));
  EXPECT_TRUE(state_of(m).fire);
}

TEST(InputMapper, MouseCapturedByImGuiDoesNotReachTheGame) {
  InputMapper m;
  m.handle_event(mouse_motion(10, 10));
  EXPECT_FALSE(m.handle_event(mouse_motion(300, 300), captured_mouse));
  EXPECT_FALSE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, true, 300, 300), captured_mouse));
  const InputState s = state_of(m);
  EXPECT_FLOAT_EQ(s.pointer_screen.x, 10.0f);  // the aim stayed where the game last saw it
  EXPECT_FALSE(s.fire || s.fire_pressed);
}

TEST(InputMapper, ReleasesAlwaysReachTheGameSoNothingSticks) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_W, true));
  m.handle_event(mouse_button(SDL_BUTTON_LEFT, true));
  // ImGui takes focus while both are held; the releases come while captured.
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_W, false), captured_keyboard));
  EXPECT_TRUE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, false), captured_mouse));
  const InputState s = state_of(m);
  EXPECT_FLOAT_EQ(s.move.y, 0.0f);
  EXPECT_FALSE(s.fire);
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_W, false)));  // releasing what is up changes nothing
}

TEST(InputMapper, OverlayAndFullscreenKeysWorkEvenWhileImGuiHasTheKeyboard) {
  InputMapper m;
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_F1, true), captured_keyboard));
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_F11, true), captured_keyboard));
  EXPECT_TRUE(state_of(m).overlay_pressed);
  EXPECT_TRUE(state_of(m).fullscreen_pressed);
}

TEST(InputMapper, FocusLossReleasesEverything) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_A, true));
  m.handle_event(key(SDL_SCANCODE_SPACE, true));
  SDL_Event focus{};
  focus.type = SDL_WINDOWEVENT;
  focus.window.event = SDL_WINDOWEVENT_FOCUS_LOST;
  EXPECT_TRUE(m.handle_event(focus));
  const InputState s = state_of(m);
  EXPECT_FLOAT_EQ(s.move.x, 0.0f);
  EXPECT_FALSE(s.fire);
}

TEST(InputMapper, IrrelevantAndMalformedEventsAreIgnored) {
  InputMapper m;
  SDL_Event e{};
  e.type = SDL_USEREVENT;
  EXPECT_FALSE(m.handle_event(e));
  EXPECT_FALSE(m.handle_event(mouse_button(0, true)));  // button 0 does not exist
  EXPECT_FALSE(m.handle_event(mouse_button(200, false)));
  SDL_Event axis{};
  axis.type = SDL_CONTROLLERAXISMOTION;
  axis.caxis.which = 1234;  // no such controller
  axis.caxis.axis = SDL_CONTROLLER_AXIS_LEFTX;
  axis.caxis.value = 32767;
  EXPECT_FALSE(m.handle_event(axis));
  EXPECT_FLOAT_EQ(state_of(m).move.x, 0.0f);
}

TEST(InputMapper, DeadzoneIsRadialAndRescaled) {
  EXPECT_EQ(engine::apply_deadzone({0.2f, 0.0f}, 0.25f), glm::vec2(0.0f, 0.0f));
  const glm::vec2 full = engine::apply_deadzone({1.0f, 0.0f}, 0.25f);
  EXPECT_FLOAT_EQ(full.x, 1.0f);
  const glm::vec2 half = engine::apply_deadzone({0.625f, 0.0f}, 0.25f);
  EXPECT_FLOAT_EQ(half.x, 0.5f);
  const glm::vec2 corner = engine::apply_deadzone({1.0f, 1.0f}, 0.25f);  // square corner of a pad
  EXPECT_NEAR(std::hypot(corner.x, corner.y), 1.0f, 1e-6f);
}

// Through SDL's own queue, as the runtime reads events.
TEST(InputMapper, EventsThroughTheSdlQueue) {
  ASSERT_EQ(SDL_Init(SDL_INIT_EVENTS), 0) << SDL_GetError();
  SDL_Event down = key(SDL_SCANCODE_S, true);
  ASSERT_EQ(SDL_PushEvent(&down), 1) << SDL_GetError();
  InputMapper m;
  SDL_Event e;
  while (SDL_PollEvent(&e) != 0) m.handle_event(e);
  EXPECT_FLOAT_EQ(state_of(m).move.y, -1.0f);
  SDL_Quit();
}

// A virtual controller stands in for a real pad: hot-plug add, sticks, trigger, removal.
TEST(InputMapper, GamepadHotPlugSticksAndTrigger) {
  ASSERT_EQ(SDL_Init(SDL_INIT_GAMECONTROLLER), 0) << SDL_GetError();
  {
    InputMapper m;
    auto pump = [&m] {
      SDL_GameControllerUpdate();
      SDL_Event e;
      while (SDL_PollEvent(&e) != 0) m.handle_event(e);
    };
    pump();
    ASSERT_EQ(m.gamepad_count(), 0);
    const int device = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                                 SDL_CONTROLLER_BUTTON_MAX, 0);
    if (device < 0) {
      SDL_Quit();
      GTEST_SKIP() << "SDL cannot attach a virtual controller here: " << SDL_GetError();
    }
    pump();
    ASSERT_EQ(m.gamepad_count(), 1);
    EXPECT_EQ(state_of(m).gamepads, 1);
    SDL_Joystick* stick = SDL_JoystickFromInstanceID(SDL_JoystickGetDeviceInstanceID(device));
    ASSERT_NE(stick, nullptr);

    SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_LEFTX, 32767);    // full right
    SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_RIGHTY, -32768);  // right stick up
    pump();
    InputState s = state_of(m);
    EXPECT_NEAR(s.move.x, 1.0f, 1e-4f);
    EXPECT_EQ(s.aim_source, engine::AimSource::gamepad);
    EXPECT_NEAR(s.aim_direction.y, 1.0f, 1e-4f);  // stick up = world +y
    EXPECT_FALSE(s.fire);

    SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    pump();
    s = state_of(m);
    EXPECT_TRUE(s.fire);
    EXPECT_TRUE(s.fire_pressed);

    SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_RIGHTY, 0);  // released: keep aiming
    pump();
    EXPECT_NEAR(state_of(m).aim_direction.y, 1.0f, 1e-4f);

    ASSERT_EQ(SDL_JoystickDetachVirtual(device), 0) << SDL_GetError();
    pump();
    EXPECT_EQ(m.gamepad_count(), 0);
    s = state_of(m);
    EXPECT_FLOAT_EQ(s.move.x, 0.0f);  // a pad that left stops driving the player
    EXPECT_FALSE(s.fire);
  }
  SDL_Quit();
}

// ImGui's real WantCaptureMouse, from a window under the mouse, keeps the click from the game.
TEST(InputMapper, ImGuiWindowUnderTheMouseCapturesTheClick) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(800, 600);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // a frame needs a built font atlas
  auto frame = [&io](ImVec2 mouse) {
    io.MousePos = mouse;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(100, 100));
    ImGui::SetNextWindowSize(ImVec2(200, 100));
    ImGui::Begin("overlay");
    ImGui::End();
    ImGui::Render();
  };
  frame(ImVec2(150, 150));
  frame(ImVec2(150, 150));
  ASSERT_TRUE(engine::imgui_capture().mouse);

  InputMapper m;
  EXPECT_FALSE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, true, 150, 150), engine::imgui_capture()));
  EXPECT_FALSE(state_of(m).fire);

  frame(ImVec2(600, 500));  // mouse away from the window
  frame(ImVec2(600, 500));
  ASSERT_FALSE(engine::imgui_capture().mouse);
  EXPECT_TRUE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, true, 600, 500), engine::imgui_capture()));
  EXPECT_TRUE(state_of(m).fire);
  ImGui::DestroyContext();
}

}  // namespace
