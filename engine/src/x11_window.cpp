#include "x11_window.hpp"

// Debian's SDL_config.h is the generic one: name the X11 driver to get SDL_SysWMinfo's x11 member.
#ifndef SDL_VIDEO_DRIVER_X11
#define SDL_VIDEO_DRIVER_X11 1
#endif
#include <SDL_syswm.h>

namespace engine::detail {

bool x11_window_size(SDL_Window* window, int& width, int& height) noexcept {
  if (window == nullptr) return false;
  SDL_SysWMinfo info;
  SDL_VERSION(&info.version);
  if (SDL_GetWindowWMInfo(window, &info) != SDL_TRUE || info.subsystem != SDL_SYSWM_X11) return false;
  // SDL loads libX11 itself for its X11 driver: ask for XGetGeometry there, so the runtime does
  // not link X11 (and a build without its headers' library still links).
  using GetGeometry = int (*)(Display*, Drawable, ::Window*, int*, int*, unsigned*, unsigned*, unsigned*, unsigned*);
  static void* const library = SDL_LoadObject("libX11.so.6");
  static const auto get_geometry =
      library != nullptr ? reinterpret_cast<GetGeometry>(SDL_LoadFunction(library, "XGetGeometry")) : nullptr;
  if (get_geometry == nullptr) return false;
  ::Window root = 0;
  int x = 0, y = 0;
  unsigned w = 0, h = 0, border = 0, depth = 0;
  if (get_geometry(info.info.x11.display, info.info.x11.window, &root, &x, &y, &w, &h, &border, &depth) == 0)
    return false;
  width = static_cast<int>(w);
  height = static_cast<int>(h);
  return true;
}

}  // namespace engine::detail
