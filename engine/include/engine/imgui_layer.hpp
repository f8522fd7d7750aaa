#pragma once
// engine::ImGuiLayer: the Dear ImGui context with the SDL2 platform backend and the
// OpenGL3 renderer backend ("#version 330 core"). No ini file is ever read or written
// (io.IniFilename = nullptr), so a run never depends on, or leaves, local state.
// Per frame: process_event() for every event (before the game sees it), begin_frame(),
// the game's ImGui calls, end_frame(), then draw() after the sprites.
// The 1.86 SDL backend reads the mouse position from SDL's pointer state, which the
// offscreen driver never has; there the layer takes it from mouse-motion events instead,
// so scripted (pushed) mouse input reaches ImGui exactly as a real pointer would.
// ImGui 1.86 samples input once per frame (no event queue; that came in 1.87), so at a low
// frame rate a press and its release inside one frame could be lost (a key), or land where
// the pointer had moved on to (a click). The layer keeps each key and button to one change
// per frame: a release that arrives in the frame of its press is held back to the next
// frame, with what comes after it for the same key; and a frame with a click sees the
// pointer where the button event said it was.
#include <engine/input.hpp>
#include <engine/status.hpp>

#include <SDL.h>

#include <bitset>
#include <vector>

namespace engine {

class ImGuiLayer {
 public:
  ImGuiLayer() = default;
  ~ImGuiLayer();  // shutdown()
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  // Creates the context and both backends for a window whose GL context is current.
  Status init(SDL_Window* window, SDL_GLContext gl_context);
  void shutdown() noexcept;  // backends, then the context
  bool active() const noexcept { return active_; }

  bool process_event(const SDL_Event& event);  // feeds the backend (or holds it one frame); true
                                               // if ImGui used or holds it
  InputCapture capture() const noexcept;       // io.WantCaptureMouse / WantCaptureKeyboard
  // Starts a frame. fixed_delta_seconds > 0 replaces the measured frame time, so ImGui's
  // clock (animations, blinking caret) depends on the frame index only: reproducible pixels.
  void begin_frame(double fixed_delta_seconds = 0.0);
  void end_frame();  // ImGui::Render(); feeds what was held back
  void draw();       // renders the draw data into the bound framebuffer

 private:
  bool active_ = false;
  bool frame_open_ = false;
  bool must_hold(const SDL_Event& event) const noexcept;
  bool feed(const SDL_Event& event);
  void release_held();

  std::vector<SDL_Event> held_;              // key/button events for the next frame, in order
  std::bitset<SDL_NUM_SCANCODES> keys_fed_;  // keys that changed in this frame
  std::uint32_t buttons_fed_ = 0;            // mouse buttons that changed in this frame (bits)
  bool click_pos_valid_ = false;             // a button changed this frame, at click_x/y_
  float click_x_ = 0.0f;
  float click_y_ = 0.0f;
  bool event_mouse_valid_ = false;  // last SDL_MOUSEMOTION position, until the pointer leaves
  float event_mouse_x_ = 0.0f;
  float event_mouse_y_ = 0.0f;
  bool pointer_left_ = false;  // the pointer left the window and has not moved in it since
};

// What the current ImGui context (if any) wants to keep for itself; none without a context.
InputCapture imgui_capture() noexcept;

}  // namespace engine
