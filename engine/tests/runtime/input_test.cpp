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

InputState state_of(const InputMapper& m) { return m.state(); }

constexpr InputCapture captured_keyboard{false, true};
constexpr InputCapture captured_mouse{true, false};

// The engine reports devices; what a key means is the game's (game/app/input_bindings.hpp).
TEST(InputMapper, KeysAreHeldByScancodeUntilReleased) {
  InputMapper m;
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_W, true)));
  m.handle_event(key(SDL_SCANCODE_LEFT, true));
  InputState s = state_of(m);
  EXPECT_TRUE(s.key(SDL_SCANCODE_W));
  EXPECT_TRUE(s.key(SDL_SCANCODE_LEFT));
  EXPECT_FALSE(s.key(SDL_SCANCODE_S));
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_W, false)));
  s = state_of(m);
  EXPECT_FALSE(s.key(SDL_SCANCODE_W));
  EXPECT_TRUE(s.key(SDL_SCANCODE_LEFT));
}

TEST(InputMapper, APressIsHeldAndItsStepEdgeIsSeenByOneStep) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_SPACE, true));
  InputState s = state_of(m);
  EXPECT_TRUE(s.key(SDL_SCANCODE_SPACE));
  EXPECT_TRUE(s.step_edges.key(SDL_SCANCODE_SPACE));
  EXPECT_TRUE(s.frame_edges.key(SDL_SCANCODE_SPACE));
  m.clear_step_edges();  // a fixed step has seen it
  s = state_of(m);
  EXPECT_TRUE(s.key(SDL_SCANCODE_SPACE));
  EXPECT_FALSE(s.step_edges.key(SDL_SCANCODE_SPACE));
  EXPECT_TRUE(s.frame_edges.key(SDL_SCANCODE_SPACE));  // the frame's own edges are cleared apart
  m.clear_frame_edges();
  m.handle_event(key(SDL_SCANCODE_SPACE, true, /*repeat=*/true));  // auto-repeat is no new press
  s = state_of(m);
  EXPECT_FALSE(s.step_edges.key(SDL_SCANCODE_SPACE) || s.frame_edges.key(SDL_SCANCODE_SPACE));
  m.handle_event(key(SDL_SCANCODE_SPACE, false));
  EXPECT_FALSE(state_of(m).key(SDL_SCANCODE_SPACE));
}

TEST(InputMapper, StepEdgesLatchUntilAStepConsumesThem) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_R, true));
  m.handle_event(key(SDL_SCANCODE_R, false));  // pressed and released within one frame
  m.clear_frame_edges();                       // a frame with zero steps passes
  InputState s = state_of(m);
  EXPECT_TRUE(s.step_edges.key(SDL_SCANCODE_R));  // still waiting for a step
  EXPECT_FALSE(s.frame_edges.key(SDL_SCANCODE_R));
  EXPECT_FALSE(s.key(SDL_SCANCODE_R));
  m.clear_step_edges();
  EXPECT_FALSE(state_of(m).step_edges.key(SDL_SCANCODE_R));
}

TEST(InputMapper, FrameEdgesLastOneFrame) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_P, true));
  m.handle_event(key(SDL_SCANCODE_F1, true));
  InputState s = state_of(m);
  EXPECT_TRUE(s.frame_edges.key(SDL_SCANCODE_P));
  EXPECT_TRUE(s.frame_edges.key(SDL_SCANCODE_F1));
  m.clear_frame_edges();
  s = state_of(m);
  EXPECT_FALSE(s.frame_edges.key(SDL_SCANCODE_P) || s.frame_edges.key(SDL_SCANCODE_F1));
  EXPECT_TRUE(s.step_edges.key(SDL_SCANCODE_P));  // no step ran yet
}

TEST(InputMapper, CtrlShortcutsAndTheWindowClosing) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_Q, true));
  EXPECT_TRUE(state_of(m).frame_edges.key(SDL_SCANCODE_Q));
  EXPECT_FALSE(state_of(m).frame_edges.key_with_ctrl(SDL_SCANCODE_Q));
  m.handle_event(key(SDL_SCANCODE_Q, false));
  m.handle_event(key(SDL_SCANCODE_Q, true, false, KMOD_LCTRL));
  m.handle_event(key(SDL_SCANCODE_Q, false));
  EXPECT_TRUE(state_of(m).frame_edges.key_with_ctrl(SDL_SCANCODE_Q));  // kept after the release
  EXPECT_FALSE(state_of(m).window_closed);
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  m.handle_event(quit);
  EXPECT_TRUE(state_of(m).window_closed);
  m.clear_frame_edges();
  m.clear_step_edges();
  EXPECT_TRUE(state_of(m).window_closed);  // closing is not undone by a frame passing
}

TEST(InputMapper, MouseReportsWindowPixelsAndButtons) {
  InputMapper m;
  EXPECT_EQ(state_of(m).last_pointer, engine::PointerDevice::none);
  m.handle_event(mouse_motion(500, 200));
  InputState s = state_of(m);
  EXPECT_EQ(s.last_pointer, engine::PointerDevice::mouse);
  EXPECT_FLOAT_EQ(s.pointer.x, 500.0f);
  EXPECT_FLOAT_EQ(s.pointer.y, 200.0f);  // window pixels, y down: the game maps them to its world
  m.handle_event(mouse_button(SDL_BUTTON_LEFT, true, 510, 210));
  s = state_of(m);
  EXPECT_TRUE(s.mouse_button(SDL_BUTTON_LEFT));
  EXPECT_FALSE(s.mouse_button(SDL_BUTTON_RIGHT));
  EXPECT_TRUE(s.step_edges.mouse_button(SDL_BUTTON_LEFT));
  EXPECT_FLOAT_EQ(s.pointer.x, 510.0f);  // a press moves the pointer to where it happened
  m.handle_event(mouse_button(SDL_BUTTON_LEFT, false, 510, 210));
  EXPECT_FALSE(state_of(m).mouse_button(SDL_BUTTON_LEFT));
}

TEST(InputMapper, KeyboardCapturedByImGuiDoesNotReachTheGame) {
  InputMapper m;
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_W, true), captured_keyboard));
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_SPACE, true), captured_keyboard));
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_P, true), captured_keyboard));
  const InputState s = state_of(m);
  EXPECT_TRUE(s.keys.none());
  EXPECT_TRUE(s.step_edges.keys.none() && s.frame_edges.keys.none());
  // The mouse is not the keyboard: a click still reaches the game.
  EXPECT_TRUE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, true), captured_keyboard));
  EXPECT_TRUE(state_of(m).mouse_button(SDL_BUTTON_LEFT));
}

TEST(InputMapper, MouseCapturedByImGuiDoesNotReachTheGame) {
  InputMapper m;
  m.handle_event(mouse_motion(10, 10));
  EXPECT_FALSE(m.handle_event(mouse_motion(300, 300), captured_mouse));
  EXPECT_FALSE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, true, 300, 300), captured_mouse));
  const InputState s = state_of(m);
  EXPECT_FLOAT_EQ(s.pointer.x, 10.0f);  // the pointer stayed where the game last saw it
  EXPECT_FALSE(s.mouse_button(SDL_BUTTON_LEFT) || s.step_edges.mouse_button(SDL_BUTTON_LEFT));
}

TEST(InputMapper, ReleasesAlwaysReachTheGameSoNothingSticks) {
  InputMapper m;
  m.handle_event(key(SDL_SCANCODE_W, true));
  m.handle_event(mouse_button(SDL_BUTTON_LEFT, true));
  // ImGui takes focus while both are held; the releases come while captured.
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_W, false), captured_keyboard));
  EXPECT_TRUE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, false), captured_mouse));
  const InputState s = state_of(m);
  EXPECT_FALSE(s.key(SDL_SCANCODE_W));
  EXPECT_FALSE(s.mouse_button(SDL_BUTTON_LEFT));
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_W, false)));  // releasing what is up changes nothing
}

TEST(InputMapper, ShortcutKeysWorkEvenWhileImGuiHasTheKeyboard) {
  InputMapper m;
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_F1, true), captured_keyboard));  // none named yet
  m.set_shortcut_keys({SDL_SCANCODE_F1, SDL_SCANCODE_F11});
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_F1, true), captured_keyboard));
  EXPECT_TRUE(m.handle_event(key(SDL_SCANCODE_F11, true), captured_keyboard));
  EXPECT_FALSE(m.handle_event(key(SDL_SCANCODE_F2, true), captured_keyboard));
  const InputState s = state_of(m);
  EXPECT_TRUE(s.frame_edges.key(SDL_SCANCODE_F1));
  EXPECT_TRUE(s.frame_edges.key(SDL_SCANCODE_F11));
  EXPECT_FALSE(s.frame_edges.key(SDL_SCANCODE_F2));
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
  EXPECT_TRUE(s.keys.none());
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
  EXPECT_FALSE(state_of(m).pads[0].connected);
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
  EXPECT_TRUE(state_of(m).key(SDL_SCANCODE_S));
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
    const engine::GamepadState& pad = s.pads[0];
    ASSERT_TRUE(pad.connected);
    EXPECT_NEAR(pad.left_stick.x, 1.0f, 1e-4f);
    EXPECT_NEAR(pad.right_stick.y, 1.0f, 1e-4f);  // stick up = +y, as in the world
    EXPECT_EQ(s.last_pointer, engine::PointerDevice::right_stick);
    EXPECT_NEAR(s.right_stick_direction.y, 1.0f, 1e-4f);
    EXPECT_FLOAT_EQ(pad.right_trigger, 0.0f);

    SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    pump();
    s = state_of(m);
    EXPECT_GE(s.pads[0].right_trigger, engine::InputMapper::trigger_threshold);
    EXPECT_TRUE(s.step_edges.pad_trigger(SDL_CONTROLLER_AXIS_TRIGGERRIGHT));
    EXPECT_FALSE(s.step_edges.pad_trigger(SDL_CONTROLLER_AXIS_TRIGGERLEFT));

    SDL_JoystickSetVirtualAxis(stick, SDL_CONTROLLER_AXIS_RIGHTY, 0);  // released: the direction stays
    pump();
    EXPECT_NEAR(state_of(m).right_stick_direction.y, 1.0f, 1e-4f);

    ASSERT_EQ(SDL_JoystickDetachVirtual(device), 0) << SDL_GetError();
    pump();
    EXPECT_EQ(m.gamepad_count(), 0);
    s = state_of(m);
    EXPECT_FALSE(s.pads[0].connected);  // a pad that left reports nothing held
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
  EXPECT_FALSE(state_of(m).mouse_button(SDL_BUTTON_LEFT));

  frame(ImVec2(600, 500));  // mouse away from the window
  frame(ImVec2(600, 500));
  ASSERT_FALSE(engine::imgui_capture().mouse);
  EXPECT_TRUE(m.handle_event(mouse_button(SDL_BUTTON_LEFT, true, 600, 500), engine::imgui_capture()));
  EXPECT_TRUE(state_of(m).mouse_button(SDL_BUTTON_LEFT));
  ImGui::DestroyContext();
}

}  // namespace
