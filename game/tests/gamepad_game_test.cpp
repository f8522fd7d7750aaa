// The game played with a gamepad, through SDL: a virtual controller (SDL_JoystickAttachVirtual)
// is hot-plugged, its sticks and buttons go through SDL's events into engine::InputMapper,
// the game's bindings (input_bindings.hpp) turn that into the game's Input, and the Simulation
// steps with it: the ship moves, aims where the right stick points, fires, and Start asks for
// a pause.
#include "app/game_app.hpp"
#include "app/input_bindings.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace game {
namespace {

class GamepadGame : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(SDL_InitSubSystem(SDL_INIT_EVENTS | SDL_INIT_GAMECONTROLLER), 0) << SDL_GetError();
    index_ = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                       SDL_CONTROLLER_BUTTON_MAX, 0);
    ASSERT_GE(index_, 0) << SDL_GetError();
    pad_ = SDL_JoystickOpen(index_);
    ASSERT_NE(pad_, nullptr) << SDL_GetError();
  }
  void TearDown() override {
    if (pad_ != nullptr) SDL_JoystickClose(pad_);
    if (index_ >= 0) SDL_JoystickDetachVirtual(index_);
    mapper_.close_gamepads();
    SDL_QuitSubSystem(SDL_INIT_EVENTS | SDL_INIT_GAMECONTROLLER);
  }
  engine::InputState pump() {
    SDL_Event event;
    for (int round = 0; round < 3; ++round) {
      SDL_PumpEvents();
      while (SDL_PollEvent(&event) != 0) mapper_.handle_event(event);
    }
    return mapper_.state();
  }
  // One fixed step of the game with what the pad says now.
  engine::InputState step(Simulation& sim) {
    const engine::InputState in = pump();
    engine::Camera2D camera;  // the stick aims from the ship: the camera is not used
    camera.viewport = {1280.0f, 720.0f};
    last_input_ = map_input(in, camera, sim.player_position());
    sim.step(last_input_);
    mapper_.clear_step_edges();
    return in;
  }

  engine::InputMapper mapper_;
  int index_ = -1;
  SDL_Joystick* pad_ = nullptr;
  Input last_input_;
};

TEST_F(GamepadGame, SticksMoveAndAimTheShipAndTheTriggerFiresAndStartPauses) {
  Simulation sim(test::repo_scenario("default.json"), 3);
  ASSERT_EQ(pump().gamepads, 1);  // hot-plugged: the mapper opened it from SDL's event
  const Vec2 start = sim.player_position();

  // Left stick right for half a second: the ship goes right, not up or down.
  SDL_JoystickSetVirtualAxis(pad_, SDL_CONTROLLER_AXIS_LEFTX, 32767);
  for (int i = 0; i < 30; ++i) step(sim);
  EXPECT_GT(sim.player_position().x, start.x + 50);
  EXPECT_NEAR(sim.player_position().y, start.y, 1e-3f);
  SDL_JoystickSetVirtualAxis(pad_, SDL_CONTROLLER_AXIS_LEFTX, 0);

  // Right stick up and to the right: the game aims that way from the ship.
  SDL_JoystickSetVirtualAxis(pad_, SDL_CONTROLLER_AXIS_RIGHTX, 23170);
  SDL_JoystickSetVirtualAxis(pad_, SDL_CONTROLLER_AXIS_RIGHTY, -23170);
  step(sim);
  const Vec2 to_aim = last_input_.aim - sim.player_position();
  EXPECT_GT(to_aim.x, 100);
  EXPECT_NEAR(to_aim.x, to_aim.y, 5);

  // Right trigger held: the player's bullets appear.
  const std::uint64_t fired_before = sim.stats().pools[static_cast<std::size_t>(PoolId::bullets)].spawns;
  SDL_JoystickSetVirtualAxis(pad_, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(fire_held(step(sim)));
  EXPECT_GT(sim.stats().pools[static_cast<std::size_t>(PoolId::bullets)].spawns, fired_before + 5);
  SDL_JoystickSetVirtualAxis(pad_, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 0);
  EXPECT_FALSE(fire_held(step(sim)));

  // Start: the pause edge the runtime acts on (a paused Application runs no steps).
  SDL_JoystickSetVirtualButton(pad_, SDL_CONTROLLER_BUTTON_START, SDL_PRESSED);
  EXPECT_TRUE(runtime_actions(pump()).toggle_pause);

  // Unplugged: no pad, and the ship stops getting its input.
  SDL_JoystickClose(pad_);
  pad_ = nullptr;
  SDL_JoystickDetachVirtual(index_);
  index_ = -1;
  EXPECT_EQ(pump().gamepads, 0);
}

}  // namespace
}  // namespace game
