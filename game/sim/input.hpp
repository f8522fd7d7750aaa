#pragma once
// What the player asks for in one step. A plain struct so the game's bindings map the
// runtime's device state (keys, mouse, gamepad) onto it in one place (game/app/input_bindings)
// and a script (autopilot) can produce it too.
#include "sim/vec2.hpp"

namespace game {

struct Input {
  float move_x = 0;      // [-1, 1], right positive; clamped by the simulation
  float move_y = 0;      // [-1, 1], up positive
  Vec2 aim;              // world position the ship aims at
  bool fire = false;     // held: the weapon fires at its rate while true
  bool restart = false;  // edge: start a new game (new lives, score 0, wave 1)
};

}  // namespace game
