#pragma once
// Poolshot's bindings: the engine reports devices (keys, mouse, pads: engine::InputState);
// this file alone says what they mean to this game. Fixed; scancodes, so WASD stays WASD on
// any keyboard layout:
//   move        W A S D / arrow keys / left stick / d-pad
//   aim         the mouse, through the frame's camera / right stick
//   fire        Space / left mouse button / right trigger / A / right shoulder
//   pause       P / Escape / Start          step (while paused)  N / left shoulder
//   restart     R / Back                    overlay  F1
//   autofire    T                           mute     M
//   fullscreen  F11                         quit     Ctrl+Q (closing the window: the runtime)
// F1 and F11 work even while the overlay (ImGui) has the keyboard: they are shortcut keys.
// Per frame, runtime_actions() reads frame_edges (what the runtime does before the steps);
// per fixed step, step_verbs() and map_input() read step_edges and the held state.
#include "sim/input.hpp"
#include "sim/vec2.hpp"

#include <engine/application.hpp>
#include <engine/camera.hpp>
#include <engine/input.hpp>

namespace game {

// How far ahead of the ship the aim point sits when a stick (or nothing yet) aims.
inline constexpr float kStickAimDistance = 300.0f;

// Tells the mapper which keys pass ImGui's keyboard capture (F1, F11).
void install_shortcut_keys(engine::InputMapper& mapper) noexcept;

// The frame's runtime verbs: pause, single step, overlay, fullscreen, quit.
engine::RuntimeActions runtime_actions(const engine::InputState& input) noexcept;

// One step's edges: the app acts on the toggles; restart goes into Input (map_input).
struct StepVerbs {
  bool fire_pressed = false;  // also starts the game from the title screen
  bool restart = false;
  bool toggle_autofire = false;
  bool toggle_mute = false;
};
StepVerbs step_verbs(const engine::InputState& input) noexcept;

bool fire_held(const engine::InputState& input) noexcept;
// Any movement held (keys, a stick past its deadzone, the d-pad).
bool move_held(const engine::InputState& input) noexcept;

// The simulation's Input for one step. The mouse aims at the world point under it through
// `camera`, the one placed for this frame (GameApp::place_camera), which render draws with.
Input map_input(const engine::InputState& input, const engine::Camera2D& camera, Vec2 player) noexcept;

}  // namespace game
