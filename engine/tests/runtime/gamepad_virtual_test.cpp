// The gamepad path end to end through SDL itself: a virtual game controller
// (SDL_JoystickAttachVirtual, SDL 2.26) is plugged in, driven and unplugged while the
// InputMapper sees only the events SDL produces, as it does in the game (hot-plug included).
#include <engine/input.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

class VirtualGamepad : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(SDL_InitSubSystem(SDL_INIT_EVENTS | SDL_INIT_GAMECONTROLLER), 0) << SDL_GetError();
    device_index_ = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                              SDL_CONTROLLER_BUTTON_MAX, 0);
    ASSERT_GE(device_index_, 0) << SDL_GetError();
    // SDL maps a virtual controller's axes and buttons in SDL_GameController order by itself;
    // if a build of SDL does not, say so here rather than fail later in a puzzling way.
    ASSERT_TRUE(SDL_IsGameController(device_index_)) << "the virtual joystick is not a game controller";
    joystick_ = SDL_JoystickOpen(device_index_);  // our handle, to set its axes and buttons
    ASSERT_NE(joystick_, nullptr) << SDL_GetError();
  }
  void TearDown() override {
    if (joystick_ != nullptr) SDL_JoystickClose(joystick_);
    if (device_index_ >= 0 && SDL_JoystickIsVirtual(device_index_)) SDL_JoystickDetachVirtual(device_index_);
    mapper_.close_gamepads();
    SDL_QuitSubSystem(SDL_INIT_EVENTS | SDL_INIT_GAMECONTROLLER);
  }
  // Lets SDL turn the virtual device's state into events and feeds them all to the mapper.
  void pump() {
    SDL_Event event;
    for (int round = 0; round < 3; ++round) {  // joystick -> controller events can take a second pump
      SDL_PumpEvents();
      while (SDL_PollEvent(&event) != 0) mapper_.handle_event(event);
    }
  }
  engine::InputState state() const { return mapper_.state(); }
  void axis(SDL_GameControllerAxis a, Sint16 value) { ASSERT_EQ(SDL_JoystickSetVirtualAxis(joystick_, a, value), 0); }
  void button(SDL_GameControllerButton b, bool down) {
    ASSERT_EQ(SDL_JoystickSetVirtualButton(joystick_, b, down ? SDL_PRESSED : SDL_RELEASED), 0);
  }

  engine::InputMapper mapper_;
  int device_index_ = -1;
  SDL_Joystick* joystick_ = nullptr;
};

TEST_F(VirtualGamepad, HotPlugSticksButtonsTriggerAndUnplug) {
  pump();  // SDL_CONTROLLERDEVICEADDED: the mapper opens it
  ASSERT_EQ(state().gamepads, 1);

  // Left stick full right and full up (stick y is down-positive; the world's y is up).
  axis(SDL_CONTROLLER_AXIS_LEFTX, 32767);
  axis(SDL_CONTROLLER_AXIS_LEFTY, -32768);
  pump();
  engine::InputState s = state();
  EXPECT_NEAR(std::hypot(s.pads[0].left_stick.x, s.pads[0].left_stick.y), 1.0f, 1e-4f);  // radial: not faster
  EXPECT_GT(s.pads[0].left_stick.x, 0.6f);
  EXPECT_GT(s.pads[0].left_stick.y, 0.6f);
  axis(SDL_CONTROLLER_AXIS_LEFTX, 0);
  axis(SDL_CONTROLLER_AXIS_LEFTY, 0);
  pump();
  EXPECT_FLOAT_EQ(state().pads[0].left_stick.x, 0.0f);

  // Right stick to the left; its direction stays when the stick is let go.
  axis(SDL_CONTROLLER_AXIS_RIGHTX, -32768);
  pump();
  s = state();
  EXPECT_EQ(s.last_pointer, engine::PointerDevice::right_stick);
  EXPECT_NEAR(s.right_stick_direction.x, -1.0f, 1e-4f);
  EXPECT_NEAR(s.right_stick_direction.y, 0.0f, 1e-4f);
  axis(SDL_CONTROLLER_AXIS_RIGHTX, 0);
  pump();
  EXPECT_NEAR(state().right_stick_direction.x, -1.0f, 1e-4f);

  // The A button, held, with its step edge; then the right trigger past its threshold.
  button(SDL_CONTROLLER_BUTTON_A, true);
  pump();
  s = state();
  EXPECT_TRUE(s.pads[0].button(SDL_CONTROLLER_BUTTON_A));
  EXPECT_TRUE(s.step_edges.pad_button(SDL_CONTROLLER_BUTTON_A));
  mapper_.clear_step_edges();
  button(SDL_CONTROLLER_BUTTON_A, false);
  pump();
  EXPECT_FALSE(state().pads[0].button(SDL_CONTROLLER_BUTTON_A));
  EXPECT_FALSE(state().step_edges.pad_button(SDL_CONTROLLER_BUTTON_A));
  axis(SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
  pump();
  EXPECT_NEAR(state().pads[0].right_trigger, 1.0f, 1e-4f);
  EXPECT_TRUE(state().step_edges.pad_trigger(SDL_CONTROLLER_AXIS_TRIGGERRIGHT));
  axis(SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 0);
  pump();
  // A virtual trigger's 0 is SDL's mid-travel (about 0.5): still short of the threshold.
  EXPECT_LT(state().pads[0].right_trigger, engine::InputMapper::trigger_threshold);

  // Start: a frame edge (what the game binds to it is the game's).
  button(SDL_CONTROLLER_BUTTON_START, true);
  pump();
  EXPECT_TRUE(state().frame_edges.pad_button(SDL_CONTROLLER_BUTTON_START));
  mapper_.clear_frame_edges();
  button(SDL_CONTROLLER_BUTTON_START, false);
  pump();
  EXPECT_FALSE(state().frame_edges.pad_button(SDL_CONTROLLER_BUTTON_START));

  // Unplug while the stick is held: the pad is gone and nothing stays held.
  axis(SDL_CONTROLLER_AXIS_LEFTX, 32767);
  button(SDL_CONTROLLER_BUTTON_A, true);
  pump();
  ASSERT_TRUE(state().pads[0].button(SDL_CONTROLLER_BUTTON_A));
  SDL_JoystickClose(joystick_);
  joystick_ = nullptr;
  ASSERT_EQ(SDL_JoystickDetachVirtual(device_index_), 0) << SDL_GetError();
  device_index_ = -1;
  pump();
  s = state();
  EXPECT_EQ(s.gamepads, 0);
  EXPECT_FALSE(s.pads[0].connected);
  EXPECT_EQ(s.pads[0].buttons, 0u);
  EXPECT_FLOAT_EQ(s.pads[0].left_stick.x, 0.0f);
}

TEST_F(VirtualGamepad, APadPluggedInAgainIsOpenedAgain) {
  pump();
  ASSERT_EQ(state().gamepads, 1);
  SDL_JoystickClose(joystick_);
  joystick_ = nullptr;
  ASSERT_EQ(SDL_JoystickDetachVirtual(device_index_), 0);
  pump();
  EXPECT_EQ(state().gamepads, 0);
  device_index_ = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                            SDL_CONTROLLER_BUTTON_MAX, 0);
  ASSERT_GE(device_index_, 0);
  joystick_ = SDL_JoystickOpen(device_index_);
  pump();
  EXPECT_EQ(state().gamepads, 1);
  button(SDL_CONTROLLER_BUTTON_BACK, true);  // the new pad's buttons reach the game
  pump();
  EXPECT_TRUE(state().step_edges.pad_button(SDL_CONTROLLER_BUTTON_BACK));
}

}  // namespace
