#pragma once
// The command line of poolshot:
//   poolshot [--headless] [--frames N] [--scenario FILE] [--seed N] [--pooling on|off]
//            [--storage contiguous|stable] [--walk bitmap|swap_pop|slot_order] [--autofire]
//            [--report FILE] [--screenshot FILE] [--frame-csv FILE] [--pace] [--compare]
//            [--advise FILE] [--script FILE] [--render-path auto|fast|instanced] [--volume 0..100]
//            [--mute] [--window WxH] [--skip-title] [--memory-map FILE.png]
// Values go as `--flag value` or `--flag=value`. A bad flag or value is a usage error:
// main prints the reason and the usage to stderr and exits 2.
#include "sim/walk_mode.hpp"

#include <engine/pool/handle.hpp>
#include <engine/sprite_renderer.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace game {

inline constexpr std::uint64_t kMaxFrames = 1000000000;       // 193 days of game at 60 Hz
inline constexpr std::uint64_t kDefaultHeadlessFrames = 600;  // 10 s of game

struct Options {
  bool headless = false;                          // simulate with no window at all
  std::optional<std::uint64_t> frames;            // steps to run; none: the script's length, else
                                                  // headless 600, windowed until quit
  std::string scenario;                           // scenario file; empty: assets/scenarios/default.json
  std::optional<std::uint64_t> seed;              // 0..2^64-1; none: the scenario's seed
  std::optional<bool> pooling;                    // none: the scenario's choice
  std::optional<engine::StorageMode> storage;     // none: the scenario's choice
  std::optional<WalkMode> walk;                   // none: the scenario's choice
  std::optional<std::uint32_t> threads;           // --threads auto (kAutoThreads) or 1..64; none: auto
  bool autofire = false;                          // the seed scripts the input
  std::string report;                             // JSON report written at exit; empty: none
  std::string screenshot;                         // PNG of the last frame (needs the renderer)
  std::string frame_csv;                          // every timed frame as CSV at exit; empty: none
  bool pace = false;                              // headless: rest a ninth of each step (real-time runs)
  bool compare = false;                           // headless A/B: pooling on vs off, same seed and input
  std::string advise;                             // scenario with the advisor's capacities, written at exit
  std::string script;                             // input/settings timeline (script.hpp); empty: none
  std::string memory_map;                         // PNG of the pools' memory map at exit; empty: none
  std::string best_score;                         // the best score's file; empty: the default (main.cpp)
  std::optional<engine::RenderPath> render_path;  // --render-path fast|instanced; none (auto, the
                                                  // default): chosen from GL_RENDERER once GL is up
  int volume = 80;                                // --volume 0..100: the mixer's master volume
  bool mute = false;                              // --mute: start silent (M toggles)
  int window_width = 0, window_height = 0;        // --window WxH; 0: the scenario's world size
  bool skip_title = false;                        // start in play (headless and fixed-length runs always do)
};

struct ParsedOptions {
  std::optional<Options> options;  // set when the command line is valid
  bool help = false;               // --help / -h: print usage() to stdout, exit 0
  std::string error;               // why it is not valid: "--frames: 'abc' is not ..."
};

ParsedOptions parse_options(int argc, const char* const* argv);
// What --render-path asked for: "auto", "fast" or "instanced" (the report's render.requested).
const char* requested_render_path(const Options& options) noexcept;
const char* usage() noexcept;  // the usage text, newline-terminated

}  // namespace game
