#include "app/input_bindings.hpp"

#include <cmath>

namespace game {

namespace {

glm::vec2 clamp_length(glm::vec2 v, float max_length) {
  const float len = std::sqrt(v.x * v.x + v.y * v.y);
  return len > max_length ? v * (max_length / len) : v;
}

bool any_pad_held(const engine::InputState& in, SDL_GameControllerButton b) {
  for (const engine::GamepadState& pad : in.pads) {
    if (pad.connected && pad.button(b)) return true;
  }
  return false;
}

// Held state to a move vector: keyboard first (diagonals are not faster), then each pad's
// left stick and d-pad, the sum clamped to length 1.
glm::vec2 move_of(const engine::InputState& in) {
  glm::vec2 keyboard{0.0f, 0.0f};
  if (in.key(SDL_SCANCODE_D) || in.key(SDL_SCANCODE_RIGHT)) keyboard.x += 1.0f;
  if (in.key(SDL_SCANCODE_A) || in.key(SDL_SCANCODE_LEFT)) keyboard.x -= 1.0f;
  if (in.key(SDL_SCANCODE_W) || in.key(SDL_SCANCODE_UP)) keyboard.y += 1.0f;
  if (in.key(SDL_SCANCODE_S) || in.key(SDL_SCANCODE_DOWN)) keyboard.y -= 1.0f;
  glm::vec2 move = clamp_length(keyboard, 1.0f);
  for (const engine::GamepadState& pad : in.pads) {
    if (!pad.connected) continue;
    move += pad.left_stick;
    if (pad.button(SDL_CONTROLLER_BUTTON_DPAD_RIGHT)) move.x += 1.0f;
    if (pad.button(SDL_CONTROLLER_BUTTON_DPAD_LEFT)) move.x -= 1.0f;
    if (pad.button(SDL_CONTROLLER_BUTTON_DPAD_UP)) move.y += 1.0f;
    if (pad.button(SDL_CONTROLLER_BUTTON_DPAD_DOWN)) move.y -= 1.0f;
  }
  return clamp_length(move, 1.0f);
}

}  // namespace

void install_shortcut_keys(engine::InputMapper& mapper) noexcept {
  mapper.set_shortcut_keys({SDL_SCANCODE_F1, SDL_SCANCODE_F11});
}

engine::RuntimeActions runtime_actions(const engine::InputState& in) noexcept {
  const engine::InputEdges& e = in.frame_edges;
  engine::RuntimeActions a;
  a.toggle_pause = e.key(SDL_SCANCODE_P) || e.key(SDL_SCANCODE_ESCAPE) || e.pad_button(SDL_CONTROLLER_BUTTON_START);
  a.single_step = e.key(SDL_SCANCODE_N) || e.pad_button(SDL_CONTROLLER_BUTTON_LEFTSHOULDER);
  a.toggle_overlay = e.key(SDL_SCANCODE_F1);
  a.toggle_fullscreen = e.key(SDL_SCANCODE_F11);
  a.quit = e.key_with_ctrl(SDL_SCANCODE_Q);
  return a;
}

StepVerbs step_verbs(const engine::InputState& in) noexcept {
  const engine::InputEdges& e = in.step_edges;
  StepVerbs v;
  v.fire_pressed = e.key(SDL_SCANCODE_SPACE) || e.mouse_button(SDL_BUTTON_LEFT) ||
                   e.pad_button(SDL_CONTROLLER_BUTTON_A) || e.pad_button(SDL_CONTROLLER_BUTTON_RIGHTSHOULDER) ||
                   e.pad_trigger(SDL_CONTROLLER_AXIS_TRIGGERRIGHT);
  v.restart = e.key(SDL_SCANCODE_R) || e.pad_button(SDL_CONTROLLER_BUTTON_BACK);
  v.toggle_autofire = e.key(SDL_SCANCODE_T);
  v.toggle_mute = e.key(SDL_SCANCODE_M);
  return v;
}

bool fire_held(const engine::InputState& in) noexcept {
  if (in.key(SDL_SCANCODE_SPACE) || in.mouse_button(SDL_BUTTON_LEFT)) return true;
  if (any_pad_held(in, SDL_CONTROLLER_BUTTON_A) || any_pad_held(in, SDL_CONTROLLER_BUTTON_RIGHTSHOULDER)) return true;
  for (const engine::GamepadState& pad : in.pads) {
    if (pad.connected && pad.right_trigger >= engine::InputMapper::trigger_threshold) return true;
  }
  return false;
}

bool move_held(const engine::InputState& in) noexcept {
  const glm::vec2 move = move_of(in);
  return move.x != 0.0f || move.y != 0.0f;
}

Input map_input(const engine::InputState& in, const engine::Camera2D& camera, Vec2 player) noexcept {
  Input out;
  const glm::vec2 move = move_of(in);
  out.move_x = move.x;
  out.move_y = move.y;
  switch (in.last_pointer) {
    case engine::PointerDevice::mouse: {
      const glm::vec2 world = camera.screen_to_world(in.pointer);
      out.aim = {world.x, world.y};
      break;
    }
    case engine::PointerDevice::right_stick:
      out.aim = player + Vec2{in.right_stick_direction.x, in.right_stick_direction.y} * kStickAimDistance;
      break;
    case engine::PointerDevice::none:
      out.aim = player + Vec2{0, kStickAimDistance};
      break;
  }
  out.fire = fire_held(in);
  out.restart = step_verbs(in).restart;
  // Pause is a runtime action (runtime_actions), which GameApp hands to the flow: a paused
  // Application runs no steps.
  return out;
}

}  // namespace game
