#pragma once
// What the tests that run the real game offscreen share: the configuration they start from
// (an offscreen GL context, one step per frame, the game's atlas and overlay statistics) and a
// mouse event pushed into SDL's queue the way a player's pointer makes one.
#include "sim/atlas_cells.hpp"
#include "metrics/overlay_recorder.hpp"

#include <SDL.h>
#include <engine/application.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace game::test {

// Sets SDL_VIDEODRIVER=offscreen (a real GL context with no display) and returns the config;
// max_frames < 0: the test's hooks decide when to stop. Tests set what they vary on top.
inline engine::AppConfig offscreen_game_config(std::int64_t max_frames = -1, const std::string& screenshot_path = "") {
  setenv("SDL_VIDEODRIVER", "offscreen", 1);
  engine::AppConfig config;
  config.mode = engine::RunMode::offscreen;
  config.max_frames = max_frames;
  config.deterministic_time = true;  // one step per frame
  config.screenshot_path = screenshot_path;
  config.atlas_path = POOLSHOT_ATLAS_PATH;
  config.atlas_cell_px = atlas::kCellPixels;
  config.stats_window = kOverlayStatsFrames;
  config.stats_events = kOverlayStatsEvents;
  return config;
}

// SDL_MOUSEMOTION to (x, y), or the left button's SDL_MOUSEBUTTONDOWN / UP there, in `window`.
inline void push_mouse(SDL_Window* window, Uint32 type, float x, float y) {
  SDL_Event e{};
  e.type = type;
  const Uint32 id = SDL_GetWindowID(window);
  if (type == SDL_MOUSEMOTION) {
    e.motion.windowID = id;
    e.motion.x = static_cast<Sint32>(x);
    e.motion.y = static_cast<Sint32>(y);
  } else {
    e.button.windowID = id;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.x = static_cast<Sint32>(x);
    e.button.y = static_cast<Sint32>(y);
  }
  SDL_PushEvent(&e);
}

}  // namespace game::test
