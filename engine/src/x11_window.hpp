#pragma once
// engine::detail::x11_window_size: the X server's own answer to "how big is this window?".
// SDL's answer (SDL_GetWindowSize) is what it asked for: after SDL_SetWindowFullscreen under an
// X server with no window manager to grant it, SDL reports the display's size while the window
// keeps its old one. Window::set_fullscreen asks the server to tell the two cases apart.
// Internal to engine/src (window.cpp); its own file so Xlib's macros (Status, None) stay out of
// the rest of the runtime.
#include <SDL.h>

namespace engine::detail {

// The window's size as the X server has it; false where the window is not an X11 window (the
// offscreen driver, Wayland) or libX11 cannot be reached.
bool x11_window_size(SDL_Window* window, int& width, int& height) noexcept;

}  // namespace engine::detail
