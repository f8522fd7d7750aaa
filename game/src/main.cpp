// poolshot: skeleton entry point; the game grows into this file's shape
// (Dear ImGui's example_sdl2_opengl3: init, loop, shutdown in reverse order).
#include "options.hpp"

#include <engine/fixed_step.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const auto options = game::parse_options(argc, argv);
  if (!options) return 2;
  if (!options->headless) {
    const char* requested = std::getenv("SDL_VIDEODRIVER");
    const bool has_display = std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
    if (!has_display && !(requested && std::strcmp(requested, "offscreen") == 0)) {
      std::fprintf(stderr,
                   "poolshot: no display found; run with --headless, or set "
                   "SDL_VIDEODRIVER=offscreen to render without a screen\n");
      return 1;
    }
  }
  engine::FixedStepClock clock;
  long steps = 0;
  while (options->frames < 0 || steps < options->frames) {
    steps += clock.advance(clock.config().step_seconds);
    if (options->frames < 0) break;  // the windowed game arrives with the runtime
  }
  std::printf("poolshot: simulated %ld frames\n", steps);
  return 0;
}
