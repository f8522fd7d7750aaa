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

void InputMapper::set_shortcut_keys(std::initializer_list<SDL_Scancode> keys) noexcept {
  shortcut_keys_.reset();
  for (SDL_Scancode sc : keys) {
    if (sc >= 0 && sc < SDL_NUM_SCANCODES) shortcut_keys_.set(static_cast<std::size_t>(sc));
  }
}

bool InputMapper::handle_event(const SDL_Event& event, InputCapture capture) {
  switch (event.type) {
    case SDL_QUIT:
      window_closed_ = true;
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
      last_pointer_ = PointerDevice::mouse;
      return true;
    case SDL_MOUSEBUTTONDOWN: {
      if (capture.mouse || event.button.button < 1 || event.button.button > 32) return false;
      pointer_ = {static_cast<float>(event.button.x), static_cast<float>(event.button.y)};
      last_pointer_ = PointerDevice::mouse;
      const std::uint32_t mask = bit(event.button.button - 1);
      mouse_buttons_ |= mask;
      mark_edges([mask](InputEdges& e) { e.mouse_buttons |= mask; });
      return true;
    }
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
  if (capture.keyboard && !shortcut_keys_.test(index)) return false;
  keys_.set(index);
  if (key.repeat != 0) return true;
  const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0;
  mark_edges([index, ctrl](InputEdges& e) {
    e.keys.set(index);
    if (ctrl) e.keys_with_ctrl.set(index);
  });
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
  mark_edges([mask](InputEdges& e) { e.pad_buttons |= mask; });
  return true;
}

bool InputMapper::handle_gamepad_axis(const SDL_ControllerAxisEvent& axis) {
  Gamepad* pad = find_gamepad(axis.which);
  if (pad == nullptr || axis.axis >= SDL_CONTROLLER_AXIS_MAX) return false;
  const auto index = static_cast<std::size_t>(axis.axis);
  const float before = pad->axes[index];
  pad->axes[index] = axis_value(axis.value, axis.axis);
  const bool trigger = axis.axis == SDL_CONTROLLER_AXIS_TRIGGERLEFT || axis.axis == SDL_CONTROLLER_AXIS_TRIGGERRIGHT;
  if (trigger && before < trigger_threshold && pad->axes[index] >= trigger_threshold) {
    const std::uint32_t mask = bit(axis.axis);
    mark_edges([mask](InputEdges& e) { e.pad_triggers |= mask; });
  }
  if (axis.axis == SDL_CONTROLLER_AXIS_RIGHTX || axis.axis == SDL_CONTROLLER_AXIS_RIGHTY) {
    // Stick y is down-positive; world y is up.
    const glm::vec2 stick =
        apply_deadzone({pad->axes[SDL_CONTROLLER_AXIS_RIGHTX], -pad->axes[SDL_CONTROLLER_AXIS_RIGHTY]}, stick_deadzone);
    const float len = std::sqrt(stick.x * stick.x + stick.y * stick.y);
    if (len > 0.0f) {  // a released stick keeps the last direction
      stick_aim_ = stick / len;
      last_pointer_ = PointerDevice::right_stick;
    }
  }
  return true;
}

InputState InputMapper::state() const {
  InputState s;
  s.keys = keys_;
  s.pointer = pointer_;
  s.mouse_buttons = mouse_buttons_;
  s.last_pointer = last_pointer_;
  s.right_stick_direction = stick_aim_;
  for (std::size_t i = 0; i < max_gamepads; ++i) {
    const Gamepad& pad = gamepads_[i];
    if (pad.instance_id < 0) continue;
    GamepadState& out = s.pads[i];
    out.connected = true;
    // Stick y is down-positive; the world's (and the game's) y is up.
    out.left_stick =
        apply_deadzone({pad.axes[SDL_CONTROLLER_AXIS_LEFTX], -pad.axes[SDL_CONTROLLER_AXIS_LEFTY]}, stick_deadzone);
    out.right_stick =
        apply_deadzone({pad.axes[SDL_CONTROLLER_AXIS_RIGHTX], -pad.axes[SDL_CONTROLLER_AXIS_RIGHTY]}, stick_deadzone);
    out.left_trigger = pad.axes[SDL_CONTROLLER_AXIS_TRIGGERLEFT];
    out.right_trigger = pad.axes[SDL_CONTROLLER_AXIS_TRIGGERRIGHT];
    out.buttons = pad.buttons;
  }
  s.gamepads = gamepad_count();
  s.step_edges = step_edges_;
  s.frame_edges = frame_edges_;
  s.window_closed = window_closed_;
  return s;
}

void InputMapper::clear_step_edges() noexcept { step_edges_ = InputEdges{}; }

// window_closed stays: once asked, the runtime stops; a later frame must still see it.
void InputMapper::clear_frame_edges() noexcept { frame_edges_ = InputEdges{}; }

void InputMapper::release_all() noexcept {
  keys_.reset();
  mouse_buttons_ = 0;
  for (Gamepad& pad : gamepads_) {
    pad.buttons = 0;
    pad.axes.fill(0.0f);
  }
}

}  // namespace engine
