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
  engine::InputState state() const {
    engine::Camera2D camera;
    camera.viewport = {800.0f, 600.0f};
    return mapper_.state(camera);
  }
  void axis(SDL_GameControllerAxis a, Sint16 value) { ASSERT_EQ(SDL_JoystickSetVirtualAxis(joystick_, a, value), 0); }
  void button(SDL_GameControllerButton b, bool down) {
    ASSERT_EQ(SDL_JoystickSetVirtualButton(joystick_, b, down ? SDL_PRESSED : SDL_RELEASED), 0);
  }

  engine::InputMapper mapper_;
  int device_index_ = -1;
  SDL_Joystick* joystick_ = nullptr;
};

TEST_F(VirtualGamepad, HotPlugMoveAimFirePauseAndUnplug) {
  pump();  // SDL_CONTROLLERDEVICEADDED: the mapper opens it
  ASSERT_EQ(state().gamepads, 1);

  // Move: left stick full right and full up (stick y is down-positive; the world's y is up).
  axis(SDL_CONTROLLER_AXIS_LEFTX, 32767);
  axis(SDL_CONTROLLER_AXIS_LEFTY, -32768);
  pump();
  engine::InputState s = state();
  EXPECT_NEAR(std::hypot(s.move.x, s.move.y), 1.0f, 1e-4f);  // a diagonal is not faster
  EXPECT_GT(s.move.x, 0.6f);
  EXPECT_GT(s.move.y, 0.6f);
  axis(SDL_CONTROLLER_AXIS_LEFTX, 0);
  axis(SDL_CONTROLLER_AXIS_LEFTY, 0);
  pump();
  EXPECT_FLOAT_EQ(state().move.x, 0.0f);

  // Aim: right stick to the left; the direction stays when the stick is let go.
  axis(SDL_CONTROLLER_AXIS_RIGHTX, -32768);
  pump();
  s = state();
  EXPECT_EQ(s.aim_source, engine::AimSource::gamepad);
  EXPECT_NEAR(s.aim_direction.x, -1.0f, 1e-4f);
  EXPECT_NEAR(s.aim_direction.y, 0.0f, 1e-4f);
  axis(SDL_CONTROLLER_AXIS_RIGHTX, 0);
  pump();
  EXPECT_NEAR(state().aim_direction.x, -1.0f, 1e-4f);

  // Fire: the A button, held, with its edge; then the right trigger.
  button(SDL_CONTROLLER_BUTTON_A, true);
  pump();
  s = state();
  EXPECT_TRUE(s.fire);
  EXPECT_TRUE(s.fire_pressed);
  mapper_.clear_step_edges();
  button(SDL_CONTROLLER_BUTTON_A, false);
  pump();
  EXPECT_FALSE(state().fire);
  axis(SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
  pump();
  EXPECT_TRUE(state().fire);
  EXPECT_TRUE(state().fire_pressed);
  axis(SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 0);
  pump();
  EXPECT_FALSE(state().fire);

  // Pause: Start.
  button(SDL_CONTROLLER_BUTTON_START, true);
  pump();
  EXPECT_TRUE(state().pause_pressed);
  mapper_.clear_frame_edges();
  button(SDL_CONTROLLER_BUTTON_START, false);
  pump();
  EXPECT_FALSE(state().pause_pressed);

  // Unplug while the stick is held: the pad is gone and nothing stays held.
  axis(SDL_CONTROLLER_AXIS_LEFTX, 32767);
  button(SDL_CONTROLLER_BUTTON_A, true);
  pump();
  ASSERT_TRUE(state().fire);
  SDL_JoystickClose(joystick_);
  joystick_ = nullptr;
  ASSERT_EQ(SDL_JoystickDetachVirtual(device_index_), 0) << SDL_GetError();
  device_index_ = -1;
  pump();
  s = state();
  EXPECT_EQ(s.gamepads, 0);
  EXPECT_FALSE(s.fire);
  EXPECT_FLOAT_EQ(s.move.x, 0.0f);
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
  button(SDL_CONTROLLER_BUTTON_BACK, true);  // restart, from the new pad
  pump();
  EXPECT_TRUE(state().restart_pressed);
}

}  // namespace
