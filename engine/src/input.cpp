#include <engine/input.hpp>

#include <algorithm>
#include <cmath>

namespace engine {

namespace {

constexpr std::uint32_t bit(int button) { return 1u << static_cast<unsigned>(button); }

float axis_value(Sint16 raw, int axis) {
  const float v = std::clamp(static_cast<float>(raw) / 32767.0f, -1.0f, 1.0f);
  // Triggers report 0..32767 on real pads; never let noise make them negative.
  const bool trigger = axis == SDL_CONTROLLER_AXIS_TRIGGERLEFT || axis == SDL_CONTROLLER_AXIS_TRIGGERRIGHT;
  return trigger ? std::max(v, 0.0f) : v;
}

glm::vec2 clamp_length(glm::vec2 v, float max_length) {
  const float len = std::sqrt(v.x * v.x + v.y * v.y);
  return len > max_length ? v * (max_length / len) : v;
}

}  // namespace

glm::vec2 apply_deadzone(glm::vec2 stick, float deadzone) noexcept {
  const float len = std::sqrt(stick.x * stick.x + stick.y * stick.y);
  if (len <= deadzone || len <= 0.0f) return {0.0f, 0.0f};
  const float scaled = std::min((len - deadzone) / (1.0f - deadzone), 1.0f);
  return stick * (scaled / len);
}

InputMapper::~InputMapper() { close_gamepads(); }

void InputMapper::close_gamepads() noexcept {
  for (Gamepad& pad : gamepads_) {
    if (pad.controller != nullptr) SDL_GameControllerClose(pad.controller);
    pad = Gamepad{};
  }
}

InputMapper::Gamepad* InputMapper::find_gamepad(std::int32_t instance_id) noexcept {
  for (Gamepad& pad : gamepads_) {
    if (pad.instance_id == instance_id && instance_id >= 0) return &pad;
  }
  return nullptr;
}

const InputMapper::Gamepad* InputMapper::find_gamepad(std::int32_t instance_id) const noexcept {
  for (const Gamepad& pad : gamepads_) {
    if (pad.instance_id == instance_id && instance_id >= 0) return &pad;
  }
  return nullptr;
}

int InputMapper::gamepad_count() const noexcept {
  return static_cast<int>(
      std::count_if(gamepads_.begin(), gamepads_.end(), [](const Gamepad& p) { return p.instance_id >= 0; }));
}

bool InputMapper::handle_event(const SDL_Event& event, InputCapture capture) {
  switch (event.type) {
    case SDL_QUIT:
      quit_edge_ = true;
      return true;
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
        release_all();
        return true;
      }
      return false;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
      return handle_key(event.key, capture);
    case SDL_MOUSEMOTION:
      if (capture.mouse) return false;
      pointer_ = {static_cast<float>(event.motion.x), static_cast<float>(event.motion.y)};
      aim_source_ = AimSource::mouse;
      return true;
    case SDL_MOUSEBUTTONDOWN:
      if (capture.mouse || event.button.button < 1 || event.button.button > 32) return false;
      pointer_ = {static_cast<float>(event.button.x), static_cast<float>(event.button.y)};
      aim_source_ = AimSource::mouse;
      mouse_buttons_ |= bit(event.button.button - 1);
      if (event.button.button == SDL_BUTTON_LEFT) fire_edge_ = true;
      return true;
    case SDL_MOUSEBUTTONUP: {
      if (event.button.button < 1 || event.button.button > 32) return false;
      // Releases always count, captured or not: a press the game saw must end.
      const std::uint32_t mask = bit(event.button.button - 1);
      const bool was_down = (mouse_buttons_ & mask) != 0;
      mouse_buttons_ &= ~mask;
      return was_down;
    }
    case SDL_CONTROLLERDEVICEADDED:
      return handle_gamepad_added(event.cdevice.which);
    case SDL_CONTROLLERDEVICEREMOVED:
      return handle_gamepad_removed(event.cdevice.which);
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
      return handle_gamepad_button(event.cbutton);
    case SDL_CONTROLLERAXISMOTION:
      return handle_gamepad_axis(event.caxis);
    default:
      return false;
  }
}

bool InputMapper::handle_key(const SDL_KeyboardEvent& key, InputCapture capture) {
  const SDL_Scancode sc = key.keysym.scancode;
  if (sc < 0 || sc >= SDL_NUM_SCANCODES) return false;
  const auto index = static_cast<std::size_t>(sc);
  if (key.type == SDL_KEYUP) {
    const bool was_down = keys_.test(index);
    keys_.reset(index);
    return was_down;
  }
  // Window-level toggles are not game input: they work even while ImGui has the keyboard,
  // so the overlay can always be hidden and fullscreen always left.
  if (sc == SDL_SCANCODE_F1 || sc == SDL_SCANCODE_F11) {
    if (key.repeat != 0) return false;
    (sc == SDL_SCANCODE_F1 ? overlay_edge_ : fullscreen_edge_) = true;
    return true;
  }
  if (capture.keyboard) return false;
  keys_.set(index);
  if (key.repeat != 0) return true;
  if (sc >= SDL_SCANCODE_A && sc <= SDL_SCANCODE_Z) letter_edges_ |= 1u << (sc - SDL_SCANCODE_A);
  switch (sc) {
    case SDL_SCANCODE_SPACE:
      fire_edge_ = true;
      break;
    case SDL_SCANCODE_P:
    case SDL_SCANCODE_ESCAPE:
      pause_edge_ = true;
      break;
    case SDL_SCANCODE_N:
      step_edge_ = true;
      break;
    case SDL_SCANCODE_R:
      restart_edge_ = true;
      break;
    case SDL_SCANCODE_Q:
      if ((key.keysym.mod & KMOD_CTRL) != 0) quit_edge_ = true;
      break;
    default:
      break;
  }
  return true;
}

bool InputMapper::handle_gamepad_added(std::int32_t device_index) {
  if (!SDL_IsGameController(device_index)) return false;
  SDL_GameController* controller = SDL_GameControllerOpen(device_index);
  if (controller == nullptr) return false;
  const SDL_JoystickID id = SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(controller));
  if (find_gamepad(id) != nullptr) {      // SDL reports devices present at start-up more than once
    SDL_GameControllerClose(controller);  // drops the extra reference SDL just gave us
    return false;
  }
  for (Gamepad& pad : gamepads_) {
    if (pad.instance_id < 0) {
      pad = Gamepad{};
      pad.instance_id = id;
      pad.controller = controller;
      return true;
    }
  }
  SDL_GameControllerClose(controller);  // more pads than slots: ignore the extra one
  return false;
}

bool InputMapper::handle_gamepad_removed(std::int32_t instance_id) {
  Gamepad* pad = find_gamepad(instance_id);
  if (pad == nullptr) return false;
  if (pad->controller != nullptr) SDL_GameControllerClose(pad->controller);
  *pad = Gamepad{};
  return true;
}

bool InputMapper::handle_gamepad_button(const SDL_ControllerButtonEvent& button) {
  Gamepad* pad = find_gamepad(button.which);
  if (pad == nullptr || button.button >= SDL_CONTROLLER_BUTTON_MAX) return false;
  const std::uint32_t mask = bit(button.button);
  if (button.type == SDL_CONTROLLERBUTTONUP) {
    const bool was_down = (pad->buttons & mask) != 0;
    pad->buttons &= ~mask;
    return was_down;
  }
  pad->buttons |= mask;
  switch (button.button) {
    case SDL_CONTROLLER_BUTTON_A:
    case SDL_CONTROLLER_BUTTON_RIGHTSHOULDER:
      fire_edge_ = true;
      break;
    case SDL_CONTROLLER_BUTTON_START:
      pause_edge_ = true;
      break;
    case SDL_CONTROLLER_BUTTON_LEFTSHOULDER:
      step_edge_ = true;
      break;
    case SDL_CONTROLLER_BUTTON_BACK:
      restart_edge_ = true;
      break;
    default:
      break;
  }
  return true;
}

bool InputMapper::handle_gamepad_axis(const SDL_ControllerAxisEvent& axis) {
  Gamepad* pad = find_gamepad(axis.which);
  if (pad == nullptr || axis.axis >= SDL_CONTROLLER_AXIS_MAX) return false;
  const auto index = static_cast<std::size_t>(axis.axis);
  const float before = pad->axes[index];
  pad->axes[index] = axis_value(axis.value, axis.axis);
  if (axis.axis == SDL_CONTROLLER_AXIS_TRIGGERRIGHT && before < trigger_threshold &&
      pad->axes[index] >= trigger_threshold) {
    fire_edge_ = true;
  }
  if (axis.axis == SDL_CONTROLLER_AXIS_RIGHTX || axis.axis == SDL_CONTROLLER_AXIS_RIGHTY) {
    // Stick y is down-positive; world y is up.
    const glm::vec2 stick =
        apply_deadzone({pad->axes[SDL_CONTROLLER_AXIS_RIGHTX], -pad->axes[SDL_CONTROLLER_AXIS_RIGHTY]}, stick_deadzone);
    const float len = std::sqrt(stick.x * stick.x + stick.y * stick.y);
    if (len > 0.0f) {  // a released stick keeps the last direction: the player keeps aiming
      stick_aim_ = stick / len;
      aim_source_ = AimSource::gamepad;
    }
  }
  return true;
}

InputState InputMapper::state(const Camera2D& camera) const {
  InputState s;
  auto key = [this](SDL_Scancode sc) { return keys_.test(static_cast<std::size_t>(sc)); };
  glm::vec2 keyboard{0.0f, 0.0f};
  if (key(SDL_SCANCODE_D) || key(SDL_SCANCODE_RIGHT)) keyboard.x += 1.0f;
  if (key(SDL_SCANCODE_A) || key(SDL_SCANCODE_LEFT)) keyboard.x -= 1.0f;
  if (key(SDL_SCANCODE_W) || key(SDL_SCANCODE_UP)) keyboard.y += 1.0f;
  if (key(SDL_SCANCODE_S) || key(SDL_SCANCODE_DOWN)) keyboard.y -= 1.0f;
  glm::vec2 move = clamp_length(keyboard, 1.0f);  // diagonals are not faster
  bool fire = key(SDL_SCANCODE_SPACE) || (mouse_buttons_ & bit(SDL_BUTTON_LEFT - 1)) != 0;

  for (const Gamepad& pad : gamepads_) {
    if (pad.instance_id < 0) continue;
    move += apply_deadzone({pad.axes[SDL_CONTROLLER_AXIS_LEFTX], -pad.axes[SDL_CONTROLLER_AXIS_LEFTY]}, stick_deadzone);
    auto held = [&pad](int b) { return (pad.buttons & bit(b)) != 0; };
    if (held(SDL_CONTROLLER_BUTTON_DPAD_RIGHT)) move.x += 1.0f;
    if (held(SDL_CONTROLLER_BUTTON_DPAD_LEFT)) move.x -= 1.0f;
    if (held(SDL_CONTROLLER_BUTTON_DPAD_UP)) move.y += 1.0f;
    if (held(SDL_CONTROLLER_BUTTON_DPAD_DOWN)) move.y -= 1.0f;
    fire = fire || held(SDL_CONTROLLER_BUTTON_A) || held(SDL_CONTROLLER_BUTTON_RIGHTSHOULDER) ||
           pad.axes[SDL_CONTROLLER_AXIS_TRIGGERRIGHT] >= trigger_threshold;
  }
  s.move = clamp_length(move, 1.0f);
  s.fire = fire;
  s.aim_source = aim_source_;
  s.pointer_screen = pointer_;
  s.aim_point = camera.screen_to_world(pointer_);
  s.aim_direction = stick_aim_;
  s.fire_pressed = fire_edge_;
  s.restart_pressed = restart_edge_;
  s.letters_pressed = letter_edges_;
  s.pause_pressed = pause_edge_;
  s.step_pressed = step_edge_;
  s.overlay_pressed = overlay_edge_;
  s.fullscreen_pressed = fullscreen_edge_;
  s.quit_requested = quit_edge_;
  s.gamepads = gamepad_count();
  return s;
}

void InputMapper::clear_step_edges() noexcept {
  fire_edge_ = false;
  restart_edge_ = false;
  letter_edges_ = 0;
}

void InputMapper::clear_frame_edges() noexcept {
  pause_edge_ = step_edge_ = overlay_edge_ = fullscreen_edge_ = false;
  // quit stays: once asked, the runtime stops; a later frame must still see it.
}

void InputMapper::release_all() noexcept {
  keys_.reset();
  mouse_buttons_ = 0;
  for (Gamepad& pad : gamepads_) {
    pad.buttons = 0;
    pad.axes.fill(0.0f);
  }
}

}  // namespace engine
