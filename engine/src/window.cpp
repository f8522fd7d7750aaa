#include <epoxy/gl.h>

#include <engine/window.hpp>

#include "x11_window.hpp"

#include <cstdlib>
#include <cstring>

#if defined(POOLSHOT_ASAN)  // cmake/PoolshotSanitizers.cmake
#include <dlfcn.h>
#include <link.h>
#endif

namespace engine {

namespace {

bool is_set(const char* s) noexcept { return s != nullptr && s[0] != '\0'; }
bool equals(const char* a, const char* b) noexcept { return a != nullptr && std::strcmp(a, b) == 0; }

constexpr const char* what_to_do = "run with --headless, or set SDL_VIDEODRIVER=offscreen to render without a screen";

#if defined(POOLSHOT_ASAN)
// Mesa keeps a few one-time allocations for the life of the process, in its DRI driver,
// which EGL dlcloses at exit; LeakSanitizer then reports them as "<unknown module>" and no
// suppression can name them. Pinning the driver keeps it loaded, so what its globals hold
// stays reachable and LeakSanitizer reports nothing of Mesa's, and still everything of ours.
void pin_gl_driver_modules() {
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) -> int {
        const char* name = info->dlpi_name;
        if (name != nullptr &&
            (std::strstr(name, "_dri.so") != nullptr || std::strstr(name, "libgallium") != nullptr)) {
          dlopen(name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);  // the handle is kept on purpose
        }
        return 0;
      },
      nullptr);
}
#else
void pin_gl_driver_modules() {}
#endif

std::string gl_string(GLenum name) {
  const auto* s = reinterpret_cast<const char*>(glGetString(name));
  return s != nullptr ? std::string(s) : std::string("unknown");
}

}  // namespace

VideoEnvironment current_video_environment(bool offscreen_requested) {
  VideoEnvironment env;
  env.requested_driver = std::getenv("SDL_VIDEODRIVER");
  env.display = std::getenv("DISPLAY");
  env.wayland_display = std::getenv("WAYLAND_DISPLAY");
  env.driver_in_use = SDL_WasInit(SDL_INIT_VIDEO) != 0 ? SDL_GetCurrentVideoDriver() : nullptr;
  env.offscreen_requested = offscreen_requested;
  return env;
}

VideoProblem diagnose_video(const VideoEnvironment& env) noexcept {
  const bool offscreen_asked = env.offscreen_requested || equals(env.requested_driver, "offscreen");
  if (env.driver_in_use == nullptr) {  // before SDL video starts: decide from the environment
    if (offscreen_asked) return VideoProblem::none;
    if (equals(env.requested_driver, "dummy")) return VideoProblem::driver_without_gl;
    if (is_set(env.requested_driver)) return VideoProblem::none;  // the user chose; SDL will say
    if (!is_set(env.display) && !is_set(env.wayland_display)) return VideoProblem::no_display;
    return VideoProblem::none;
  }
  if (equals(env.driver_in_use, "dummy")) return VideoProblem::driver_without_gl;
  if (equals(env.driver_in_use, "offscreen") && !offscreen_asked) return VideoProblem::no_display;
  return VideoProblem::none;
}

std::string describe_video_problem(VideoProblem problem, const VideoEnvironment& env) {
  switch (problem) {
    case VideoProblem::none:
      return "video is available";
    case VideoProblem::no_display:
      if (env.driver_in_use != nullptr) {
        return std::string("no display found; ") + what_to_do + " (SDL found no screen and fell back to '" +
               env.driver_in_use + "')";
      }
      return std::string("no display found; ") + what_to_do + " (DISPLAY and WAYLAND_DISPLAY are unset)";
    case VideoProblem::driver_without_gl: {
      const char* driver = env.driver_in_use != nullptr ? env.driver_in_use : env.requested_driver;
      return std::string("SDL video driver '") + (driver != nullptr ? driver : "?") +
             "' cannot create OpenGL windows; " + what_to_do;
    }
  }
  return "unknown video problem";
}

Window::~Window() { close(); }

Status Window::open(const WindowConfig& config) {
  close();
  VideoEnvironment env = current_video_environment(config.offscreen);
  env.driver_in_use = nullptr;  // decide from the environment first: SDL may print noise while probing
  if (VideoProblem p = diagnose_video(env); p != VideoProblem::none)
    return Status::error(describe_video_problem(p, env));

  if (config.offscreen) SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "offscreen", SDL_HINT_OVERRIDE);
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
    const std::string why = SDL_GetError();
    if (config.offscreen) SDL_ResetHint(SDL_HINT_VIDEODRIVER);
    return Status::error("cannot start SDL video (" + why + "); " + what_to_do);
  }
  video_initialised_ = true;
  driver_ = SDL_GetCurrentVideoDriver() != nullptr ? SDL_GetCurrentVideoDriver() : "?";
  env.driver_in_use = driver_.c_str();
  if (VideoProblem p = diagnose_video(env); p != VideoProblem::none) {
    Status s = Status::error(describe_video_problem(p, env));
    close();
    return s;
  }

  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);  // 2D: painter's order by layer, no depth buffer
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);

  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI;
  if (config.resizable) flags |= SDL_WINDOW_RESIZABLE;
  if (config.fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
  const int centered = static_cast<int>(SDL_WINDOWPOS_CENTERED_MASK);
  window_ = SDL_CreateWindow(config.title.c_str(), centered, centered, config.width, config.height, flags);
  if (window_ == nullptr) {
    Status s =
        Status::error("cannot open a " + std::to_string(config.width) + "x" + std::to_string(config.height) +
                      " OpenGL window with SDL video driver '" + driver_ + "' (" + SDL_GetError() + "); " + what_to_do);
    close();
    return s;
  }
  fullscreen_ = config.fullscreen;
  context_ = SDL_GL_CreateContext(window_);
  if (context_ == nullptr) {
    Status s = Status::error("cannot create an OpenGL 3.3 core context with SDL video driver '" + driver_ + "' (" +
                             SDL_GetError() + "); " + what_to_do);
    close();
    return s;
  }
  SDL_GL_MakeCurrent(window_, context_);
  pin_gl_driver_modules();
  if (epoxy_gl_version() < 33) {
    Status s = Status::error("OpenGL 3.3 is needed but the driver gives " + std::to_string(epoxy_gl_version() / 10) +
                             "." + std::to_string(epoxy_gl_version() % 10) + "; " + what_to_do);
    close();
    return s;
  }
  renderer_ = gl_string(GL_RENDERER);
  version_ = gl_string(GL_VERSION);
  set_vsync(config.vsync);
  return Status::ok();
}

void Window::close() noexcept {
  if (context_ != nullptr) SDL_GL_DeleteContext(context_);
  if (window_ != nullptr) SDL_DestroyWindow(window_);
  context_ = nullptr;
  window_ = nullptr;
  if (video_initialised_) {
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    SDL_ResetHint(SDL_HINT_VIDEODRIVER);
  }
  video_initialised_ = false;
  vsync_ = fullscreen_ = by_resize_ = false;
}

bool Window::set_vsync(bool on) noexcept {
  if (context_ == nullptr) return false;
  const bool accepted = SDL_GL_SetSwapInterval(on ? 1 : 0) == 0;
  vsync_ = on && accepted;
  return accepted;
}

namespace {

// Waits up to `ms` for the window's size, as the display server has it, to reach `want`
// (a window manager grants a request later, and may not at all); returns whether it did.
bool size_reaches(SDL_Window* window, int want_w, int want_h, int ms) noexcept {
  for (int waited = 0;; waited += 10) {
    SDL_PumpEvents();  // the configure events land in SDL's window state; the events stay queued
    int w = 0, h = 0;
    if (!detail::x11_window_size(window, w, h)) SDL_GetWindowSize(window, &w, &h);
    if (w == want_w && h == want_h) return true;
    if (waited >= ms) return false;
    SDL_Delay(10);
  }
}

// Fullscreen by hand (no window manager granted it) and back: border, place, size, then wait
// for the X server to apply the size, so the next frame's viewport is the new one.
void place_window(SDL_Window* window, SDL_bool bordered, const SDL_Rect& at) {
  SDL_SetWindowBordered(window, bordered);
  SDL_SetWindowPosition(window, at.x, at.y);
  SDL_SetWindowSize(window, at.w, at.h);
  size_reaches(window, at.w, at.h, 250);
}

}  // namespace

void Window::set_fullscreen(bool on) noexcept {
  if (window_ == nullptr || on == fullscreen_) return;
  if (!on) {
    if (by_resize_) {
      place_window(window_, SDL_TRUE, windowed_);
      by_resize_ = false;
      fullscreen_ = false;
    } else if (SDL_SetWindowFullscreen(window_, 0) == 0) {
      fullscreen_ = false;
      // A driver that cannot resize a window (offscreen) keeps the display's size: give it back.
      int w = 0, h = 0;
      SDL_GetWindowSize(window_, &w, &h);
      if (w != windowed_.w || h != windowed_.h) SDL_SetWindowSize(window_, windowed_.w, windowed_.h);
    }
    return;
  }
  SDL_GetWindowPosition(window_, &windowed_.x, &windowed_.y);
  SDL_GetWindowSize(window_, &windowed_.w, &windowed_.h);
  SDL_Rect bounds{};
  const int display = SDL_GetWindowDisplayIndex(window_);
  const bool have_bounds = display >= 0 && SDL_GetDisplayBounds(display, &bounds) == 0;
  if (SDL_SetWindowFullscreen(window_, Uint32{SDL_WINDOW_FULLSCREEN_DESKTOP}) == 0) {
    fullscreen_ = true;
    if (!have_bounds || size_reaches(window_, bounds.w, bounds.h, 500)) return;
    // Nothing granted it: SDL keeps the flag, the window its size. Take the flag back (SDL
    // ignores a resize of a fullscreen window) and do it by hand.
    SDL_SetWindowFullscreen(window_, 0);
    fullscreen_ = false;
  }
  if (!have_bounds) return;
  place_window(window_, SDL_FALSE, SDL_Rect{bounds.x, bounds.y, bounds.w, bounds.h});
  by_resize_ = true;
  fullscreen_ = true;
}

bool Window::minimized() const noexcept {
  return window_ != nullptr && (SDL_GetWindowFlags(window_) & SDL_WINDOW_MINIMIZED) != 0;
}

glm::ivec2 Window::window_size() const noexcept {
  glm::ivec2 size{0, 0};
  if (window_ != nullptr) SDL_GetWindowSize(window_, &size.x, &size.y);
  return size;
}

glm::ivec2 Window::drawable_size() const noexcept {
  glm::ivec2 size{0, 0};
  if (window_ != nullptr) SDL_GL_GetDrawableSize(window_, &size.x, &size.y);
  return size;
}

void Window::swap() noexcept {
  if (window_ != nullptr) SDL_GL_SwapWindow(window_);
}

}  // namespace engine
