#pragma once
// engine::Window: the SDL window and its OpenGL 3.3 core context (functions via epoxy),
// plus the decision "is there a screen to open a window on at all?".
//
// SDL 2.26 with no DISPLAY quietly falls back to its offscreen driver. A player who
// typed `poolshot` on a headless box should hear "no display", not get an invisible
// window, so that fallback counts as a window only when offscreen was asked for
// (SDL_VIDEODRIVER=offscreen in the environment, or WindowConfig::offscreen).
#include <engine/status.hpp>

#include <SDL.h>
#include <glm/vec2.hpp>

#include <string>

namespace engine {

// What decides whether a window can exist; plain strings (nullptr = unset) so the
// decision is a pure function the tests can feed.
struct VideoEnvironment {
  const char* requested_driver = nullptr;  // SDL_VIDEODRIVER from the environment
  const char* display = nullptr;           // DISPLAY
  const char* wayland_display = nullptr;   // WAYLAND_DISPLAY
  const char* driver_in_use = nullptr;     // SDL_GetCurrentVideoDriver() after init; nullptr before
  bool offscreen_requested = false;        // the program asked for offscreen itself
};

enum class VideoProblem {
  none,               // go ahead
  no_display,         // nothing to show a window on
  driver_without_gl,  // e.g. SDL_VIDEODRIVER=dummy: SDL runs but can never give a GL context
};

VideoEnvironment current_video_environment(bool offscreen_requested);  // reads getenv + SDL
VideoProblem diagnose_video(const VideoEnvironment& env) noexcept;
// One line, no trailing newline: the cause and what to do (--headless / SDL_VIDEODRIVER=offscreen).
std::string describe_video_problem(VideoProblem problem, const VideoEnvironment& env);

struct WindowConfig {
  std::string title = "Poolshot";
  int width = 1280;
  int height = 720;
  bool offscreen = false;  // force SDL's offscreen driver: real GL (EGL), nothing on screen
  bool vsync = true;
  bool fullscreen = false;  // desktop fullscreen
  bool resizable = true;
};

class Window {
 public:
  Window() = default;
  ~Window();  // close()
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Initialises SDL video, opens the window and a GL 3.3 core context and makes it current.
  // Failure: a one-line Status (cause + what to do); everything opened so far is closed.
  Status open(const WindowConfig& config);
  void close() noexcept;
  bool is_open() const noexcept { return window_ != nullptr; }

  // Returns whether the driver accepted the swap interval; a refusal is not an error
  // (Xvfb, some offscreen drivers) and leaves vsync() false.
  bool set_vsync(bool on) noexcept;
  bool vsync() const noexcept { return vsync_; }
  // Desktop fullscreen. Where nothing grants it (a bare X server has no window manager to
  // honour _NET_WM_STATE_FULLSCREEN: SDL sets its flag and the window keeps its size), the window
  // is made borderless and moved and resized to its display's bounds instead; leaving restores
  // the size and position it had. The drawable size follows either way (drawable_size()).
  void set_fullscreen(bool on) noexcept;
  void toggle_fullscreen() noexcept { set_fullscreen(!fullscreen_); }
  bool fullscreen() const noexcept { return fullscreen_; }
  bool fullscreen_by_resize() const noexcept { return by_resize_; }  // the fallback is in force
  bool minimized() const noexcept;                                   // nothing to draw; swap will not pace the loop

  glm::ivec2 window_size() const noexcept;    // logical pixels (mouse coordinates)
  glm::ivec2 drawable_size() const noexcept;  // framebuffer pixels (glViewport)
  void swap() noexcept;

  SDL_Window* sdl_window() const noexcept { return window_; }
  SDL_GLContext gl_context() const noexcept { return context_; }
  const std::string& video_driver() const noexcept { return driver_; }
  const std::string& gl_renderer() const noexcept { return renderer_; }  // "llvmpipe (...)"
  const std::string& gl_version() const noexcept { return version_; }

 private:
  SDL_Window* window_ = nullptr;
  SDL_GLContext context_ = nullptr;
  bool video_initialised_ = false;
  bool vsync_ = false;
  bool fullscreen_ = false;
  bool by_resize_ = false;  // fullscreen by the fallback: borderless at the display's bounds
  SDL_Rect windowed_{};     // position and size to return to from fullscreen
  std::string driver_, renderer_, version_;
};

}  // namespace engine
