#pragma once
// engine::InputState and engine::InputMapper: keyboard, mouse and gamepads as device state,
// in the engine's own terms (scancodes, window pixels, SDL's controller buttons and axes).
// The engine knows no game verbs: what a key or button does is the game's binding (poolshot's
// are in game/app/input_bindings.hpp). The engine only acts on the window
// closing, and on the RuntimeActions the game's hooks hand back (application.hpp).
//
// Edges: every press is recorded twice, once in step_edges (cleared after each fixed step,
// latched while no step runs, so a tap between two steps still reaches exactly one step) and
// once in frame_edges (cleared once per frame, after the runtime's own actions). Auto-repeat
// is no new press. Input that Dear ImGui captured (InputCapture) never reaches the game,
// except the shortcut keys the game names (set_shortcut_keys); key and button releases
// always do, so nothing stays held when ImGui took the matching press.
#include <SDL.h>
#include <glm/vec2.hpp>

#include <array>
#include <bitset>
#include <cstdint>
#include <initializer_list>

namespace engine {

// Which pointing device moved last: the mouse (InputState::pointer) or a right stick
// (InputState::right_stick_direction).
enum class PointerDevice : std::uint8_t { none = 0, mouse = 1, right_stick = 2 };

using KeySet = std::bitset<SDL_NUM_SCANCODES>;  // bit per SDL_Scancode

// What went down since these edges were last cleared.
struct InputEdges {
  KeySet keys;
  KeySet keys_with_ctrl;            // the same presses, only those made while Ctrl was held
  std::uint32_t mouse_buttons = 0;  // bit (SDL_BUTTON_x - 1)
  std::uint32_t pad_buttons = 0;    // any pad: bit per SDL_GameControllerButton
  std::uint32_t pad_triggers = 0;   // any pad: bit per trigger axis (SDL_CONTROLLER_AXIS_TRIGGERLEFT /
                                    // TRIGGERRIGHT) that crossed InputMapper::trigger_threshold
  bool key(SDL_Scancode sc) const noexcept { return keys.test(static_cast<std::size_t>(sc)); }
  bool key_with_ctrl(SDL_Scancode sc) const noexcept { return keys_with_ctrl.test(static_cast<std::size_t>(sc)); }
  bool mouse_button(int button) const noexcept {
    return button >= 1 && button <= 32 && (mouse_buttons & (1u << (button - 1))) != 0;
  }
  bool pad_button(SDL_GameControllerButton b) const noexcept { return (pad_buttons & (1u << b)) != 0; }
  bool pad_trigger(SDL_GameControllerAxis axis) const noexcept { return (pad_triggers & (1u << axis)) != 0; }
};

// One connected controller, now. Sticks are after the radial deadzone, y UP (like the world).
struct GamepadState {
  bool connected = false;
  glm::vec2 left_stick{0.0f, 0.0f};
  glm::vec2 right_stick{0.0f, 0.0f};
  float left_trigger = 0.0f;  // 0..1
  float right_trigger = 0.0f;
  std::uint32_t buttons = 0;  // held: bit per SDL_GameControllerButton
  bool button(SDL_GameControllerButton b) const noexcept { return (buttons & (1u << b)) != 0; }
};

constexpr std::size_t max_gamepads = 8;

// The devices as the game sees them: held state now plus the pending edges.
struct InputState {
  KeySet keys;                      // held
  glm::vec2 pointer{0.0f, 0.0f};    // mouse in window pixels, origin top-left, y down
  std::uint32_t mouse_buttons = 0;  // held: bit (SDL_BUTTON_x - 1)
  PointerDevice last_pointer = PointerDevice::none;
  glm::vec2 right_stick_direction{0.0f, 0.0f};    // unit, y up: the last right stick pushed past the
                                                  // deadzone (a released stick keeps it)
  std::array<GamepadState, max_gamepads> pads{};  // slot order; connected ones only count
  int gamepads = 0;                               // connected game controllers
  InputEdges step_edges;                          // since the last fixed step
  InputEdges frame_edges;                         // since the last frame
  bool window_closed = false;                     // SDL_QUIT; stays set: the runtime stops
  bool paused = false;                            // filled by Application: the sim clock is paused

  bool key(SDL_Scancode sc) const noexcept { return keys.test(static_cast<std::size_t>(sc)); }
  bool mouse_button(int button) const noexcept {
    return button >= 1 && button <= 32 && (mouse_buttons & (1u << (button - 1))) != 0;
  }
};

// What Dear ImGui claimed for itself (io.WantCaptureMouse / WantCaptureKeyboard).
struct InputCapture {
  bool mouse = false;
  bool keyboard = false;
};

// Turns SDL events into InputState. Owns the SDL_GameControllers it opens (hot-plug).
class InputMapper {
 public:
  static constexpr std::size_t max_gamepads = engine::max_gamepads;
  static constexpr float stick_deadzone = 0.25f;  // of full deflection; radial, rescaled
  static constexpr float trigger_threshold = 0.5f;

  InputMapper() = default;
  ~InputMapper();  // closes every controller it opened
  InputMapper(const InputMapper&) = delete;
  InputMapper& operator=(const InputMapper&) = delete;

  // Feeds one event. Returns true when it changed what the game sees, false when it was
  // ImGui's (capture), irrelevant, or a release of something already up.
  bool handle_event(const SDL_Event& event, InputCapture capture = {});
  // Keys whose presses reach the game even while ImGui has the keyboard: window-level
  // shortcuts (the game's overlay and fullscreen toggles), so they always work.
  void set_shortcut_keys(std::initializer_list<SDL_Scancode> keys) noexcept;
  InputState state() const;           // held state plus pending edges
  void clear_step_edges() noexcept;   // after a fixed step saw step_edges
  void clear_frame_edges() noexcept;  // after the frame's runtime actions saw frame_edges
  void release_all() noexcept;        // focus lost: nothing stays held
  void close_gamepads() noexcept;     // before SDL's game controller subsystem quits
  int gamepad_count() const noexcept;

 private:
  struct Gamepad {
    std::int32_t instance_id = -1;                      // SDL_JoystickID; -1 = free slot
    SDL_GameController* controller = nullptr;           // nullptr if opened elsewhere
    std::array<float, SDL_CONTROLLER_AXIS_MAX> axes{};  // -1..1 (triggers 0..1)
    std::uint32_t buttons = 0;                          // bit per SDL_GameControllerButton
  };
  Gamepad* find_gamepad(std::int32_t instance_id) noexcept;
  const Gamepad* find_gamepad(std::int32_t instance_id) const noexcept;
  bool handle_key(const SDL_KeyboardEvent& key, InputCapture capture);
  bool handle_gamepad_added(std::int32_t device_index);
  bool handle_gamepad_removed(std::int32_t instance_id);
  bool handle_gamepad_button(const SDL_ControllerButtonEvent& button);
  bool handle_gamepad_axis(const SDL_ControllerAxisEvent& axis);
  template <class Mark>
  void mark_edges(Mark mark) noexcept {  // one press, into both edge sets
    mark(step_edges_);
    mark(frame_edges_);
  }

  KeySet keys_;
  KeySet shortcut_keys_;
  std::uint32_t mouse_buttons_ = 0;  // SDL_BUTTON masks
  glm::vec2 pointer_{0.0f, 0.0f};
  PointerDevice last_pointer_ = PointerDevice::none;
  glm::vec2 stick_aim_{0.0f, 0.0f};
  std::array<Gamepad, max_gamepads> gamepads_{};
  InputEdges step_edges_, frame_edges_;
  bool window_closed_ = false;
};

// Radial deadzone: below `deadzone` of full deflection is 0, the rest is rescaled to 0..1
// so the stick still reaches full speed; the result never exceeds length 1.
glm::vec2 apply_deadzone(glm::vec2 stick, float deadzone) noexcept;

}  // namespace engine
