#pragma once
// engine::InputState and engine::InputMapper: keyboard, mouse and gamepads turned into
// the game's actions, so the game never reads a raw key.
//
// Bindings (fixed; scancodes, so WASD stays WASD on any keyboard layout):
//   move        W A S D / arrow keys / left stick / d-pad
//   aim         mouse position (aim_point) / right stick (aim_direction)
//   fire        Space / left mouse button / right trigger / A / right shoulder
//   pause       P / Escape / Start          step (while paused)  N / left shoulder
//   restart     R / Back                    overlay  F1
//   fullscreen  F11                         quit     Ctrl+Q / closing the window
// Input that Dear ImGui captured (InputCapture) never reaches the game; key and button
// releases always do, so nothing stays held when ImGui took the matching press.
#include <engine/camera.hpp>

#include <SDL.h>
#include <glm/vec2.hpp>

#include <array>
#include <bitset>
#include <cstdint>

namespace engine {

enum class AimSource : std::uint8_t {
  none = 0,     // nothing has aimed yet
  mouse = 1,    // aim_point is valid: aim at that world position
  gamepad = 2,  // aim_direction is valid: aim that way from the player
};

// The game's view of input for one fixed step. Held values describe now; *_pressed
// edges are true on exactly one fixed step after the press (latched while no step runs).
struct InputState {
  glm::vec2 move{0.0f, 0.0f};  // wanted movement, world axes (y up), length <= 1
  AimSource aim_source = AimSource::none;
  glm::vec2 aim_point{0.0f, 0.0f};       // world position under the mouse
  glm::vec2 aim_direction{0.0f, 0.0f};   // unit vector, world axes, last right-stick direction
  glm::vec2 pointer_screen{0.0f, 0.0f};  // mouse in window pixels, origin top-left, y down
  bool fire = false;                     // held: keep firing while true
  bool fire_pressed = false;             // edge
  bool restart_pressed = false;          // edge: the game resets its world
  std::uint32_t letters_pressed = 0;     // edges: bit i set when letter 'A' + i went down this
                                         // step, for keys the game binds itself (T, M, ...)
  // Edges the runtime acts on itself (Application); the game may show them.
  bool pause_pressed = false;
  bool step_pressed = false;
  bool overlay_pressed = false;
  bool fullscreen_pressed = false;
  bool quit_requested = false;  // Ctrl+Q or the window was closed
  // Filled by Application:
  bool paused = false;  // the simulation clock is paused
  int gamepads = 0;     // connected game controllers
};

// What Dear ImGui claimed for itself (io.WantCaptureMouse / WantCaptureKeyboard).
struct InputCapture {
  bool mouse = false;
  bool keyboard = false;
};

// Turns SDL events into InputState. Owns the SDL_GameControllers it opens (hot-plug).
class InputMapper {
 public:
  static constexpr std::size_t max_gamepads = 8;
  static constexpr float stick_deadzone = 0.25f;  // of full deflection; radial, rescaled
  static constexpr float trigger_threshold = 0.5f;

  InputMapper() = default;
  ~InputMapper();  // closes every controller it opened
  InputMapper(const InputMapper&) = delete;
  InputMapper& operator=(const InputMapper&) = delete;

  // Feeds one event. Returns true when it changed what the game sees, false when it was
  // ImGui's (capture), irrelevant, or a release of something already up.
  bool handle_event(const SDL_Event& event, InputCapture capture = {});
  // Held state plus pending edges; aim_point uses camera (the one last rendered with).
  InputState state(const Camera2D& camera) const;
  void clear_step_edges() noexcept;   // after a fixed step saw fire/restart edges
  void clear_frame_edges() noexcept;  // after the runtime acted on pause/step/overlay/...
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
  void update_stick_aim() noexcept;

  std::bitset<SDL_NUM_SCANCODES> keys_;
  std::uint32_t mouse_buttons_ = 0;  // SDL_BUTTON masks
  glm::vec2 pointer_{0.0f, 0.0f};
  AimSource aim_source_ = AimSource::none;
  glm::vec2 stick_aim_{0.0f, 0.0f};
  std::array<Gamepad, max_gamepads> gamepads_{};
  // Edges: step edges are cleared after a fixed step, frame edges after the runtime's frame.
  bool fire_edge_ = false, restart_edge_ = false;
  std::uint32_t letter_edges_ = 0;
  bool pause_edge_ = false, step_edge_ = false, overlay_edge_ = false, fullscreen_edge_ = false, quit_edge_ = false;
};

// Radial deadzone: below `deadzone` of full deflection is 0, the rest is rescaled to 0..1
// so the stick still reaches full speed; the result never exceeds length 1.
glm::vec2 apply_deadzone(glm::vec2 stick, float deadzone) noexcept;

}  // namespace engine
