#include "app/options.hpp"

#include "sim/settings.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <set>
#include <string_view>

namespace game {

namespace {

constexpr const char* kUsage =
    "usage: poolshot [--headless] [--frames N] [--scenario FILE] [--seed N]\n"
    "                [--pooling on|off] [--storage contiguous|stable|packed|packed_pages] [--autofire]\n"
    "                [--walk bitmap|swap_pop|slot_order] [--threads auto|N]\n"
    "                [--report FILE] [--screenshot FILE] [--frame-csv FILE]\n"
    "                [--pace] [--compare] [--advise FILE] [--script FILE]\n"
    "                [--render-path auto|fast|instanced] [--volume 0..100] [--mute]\n"
    "                [--window WxH] [--skip-title]\n"
    "                [--memory-map FILE.png] [--best-score FILE]\n"
    "  --headless           simulate without a window (default 600 frames)\n"
    "  --frames N           run N fixed 1/60 s steps, N in 0..1000000000\n"
    "                       (default with --script: the script's length)\n"
    "  --scenario FILE      scenario JSON (default assets/scenarios/default.json)\n"
    "  --seed N             random seed, N in 0..18446744073709551615 (2^64-1);\n"
    "                       default: the scenario's seed\n"
    "  --pooling on|off     objects in pools (on) or one new/delete each (off)\n"
    "  --storage MODE       pool storage: contiguous, stable, packed or packed_pages\n"
    "  --walk WALK          how pooled stores walk each step: bitmap (the pool's own),\n"
    "                       swap_pop or slot_order (an active-index list; default)\n"
    "  --threads auto|N     threads of the update phase: auto (default) measures the\n"
    "                       machine's hardware threads (at most 8) against one while\n"
    "                       the game runs and keeps the faster; N in 1..64 forces N.\n"
    "                       The game is the same at any count, only its speed changes\n"
    "  --autofire           the seed scripts the input: strafe, aim, always fire\n"
    "  --report FILE        write a JSON report at exit\n"
    "  --screenshot FILE    save the last rendered frame as PNG (not with --headless)\n"
    "  --compare            with --headless: run the scenario twice from the start,\n"
    "                       pooling on and off (same seed and input, steps interleaved),\n"
    "                       N frames each, fire held in both (the load); with --report\n"
    "                       FILE.json also writes FILE.csv (both series) and FILE.png\n"
    "                       (chart)\n"
    "  --advise FILE        at exit, write the scenario with the capacity advisor's\n"
    "                       initial capacities (peak + 25 %, rounded up to 64) to FILE\n"
    "  --script FILE        play a JSON timeline (assets/scripts/): fire, move, aim and\n"
    "                       settings changes at given frames, in place of the keyboard,\n"
    "                       mouse and gamepad; the report gets one phase per settings span\n"
    "  --render-path PATH   auto (default): fast on software GL (llvmpipe, softpipe,\n"
    "                       swrast), instanced on a GPU, from GL_RENDERER; fast: small\n"
    "                       sprites stamped on the CPU into one image per blend group;\n"
    "                       instanced: every sprite a GL quad\n"
    "  --window WxH         window size in pixels (default 1280x720; with --frames or\n"
    "                       --script: the scenario's world size, 1000x600 by default);\n"
    "                       W in 320..7680, H in 240..4320\n"
    "  --skip-title         start playing at once (runs with --frames or --script do)\n"
    "  --best-score FILE    keep the best score in FILE (not with --headless); default:\n"
    "                       the user's preferences folder when a person plays, none for\n"
    "                       runs with --frames or --script\n"
    "  --memory-map FILE    at exit, write the pools' memory map as PNG: per pool the\n"
    "                       live share of each run of slots and the walk order (heap\n"
    "                       mode: the objects' addresses); the report gets its summary\n"
    "  --frame-csv FILE     write every frame's sim/render ms, heap allocations and\n"
    "                       growth flag as CSV at exit (scripts/bench charts it)\n"
    "  --pace               headless: after each step rest a ninth of its time, so a\n"
    "                       run under a real-time scheduler (chrt -f, as scripts/bench\n"
    "                       does) is never stalled by the kernel's real-time throttle\n"
    "  --volume N           sound volume, N in 0..100 (default 80; the overlay has a slider)\n"
    "  --mute               start with the sound muted (M toggles it in the game)\n"
    "  --help               this text\n";

// Decimal digits only (no sign, no spaces, no hex), at most `max`; false otherwise.
bool parse_unsigned(std::string_view text, std::uint64_t max, std::uint64_t& out) {
  if (text.empty()) return false;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (max - digit) / 10) return false;  // value * 10 + digit would pass max
    value = value * 10 + digit;
  }
  out = value;
  return true;
}

}  // namespace

const char* usage() noexcept { return kUsage; }

const char* requested_render_path(const Options& options) noexcept {
  return options.render_path ? engine::render_path_name(*options.render_path) : "auto";
}

ParsedOptions parse_options(int argc, const char* const* argv) {
  ParsedOptions result;
  Options o;
  std::set<std::string> seen;
  const auto fail = [&](std::string message) {
    result.error = std::move(message);
    return result;
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      result.help = true;
      return result;
    }
    // Split --flag=value; a value may also be the next argument.
    std::optional<std::string> inline_value;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    static const std::set<std::string> switches = {"--headless", "--autofire", "--compare",
                                                   "--pace",     "--mute",     "--skip-title"};
    static const std::set<std::string> valued = {"--frames",  "--scenario",   "--seed",        "--pooling",
                                                 "--storage", "--report",     "--screenshot",  "--frame-csv",
                                                 "--advise",  "--script",     "--render-path", "--volume",
                                                 "--window",  "--memory-map", "--walk",        "--best-score",
                                                 "--threads"};
    if (switches.count(arg) == 0 && valued.count(arg) == 0) {
      return fail("unknown option " + std::string(argv[i]));
    }
    if (!seen.insert(arg).second) return fail(arg + " given more than once");
    if (switches.count(arg) != 0) {
      if (inline_value) return fail(arg + " takes no value");
      (arg == "--headless"     ? o.headless
       : arg == "--autofire"   ? o.autofire
       : arg == "--pace"       ? o.pace
       : arg == "--mute"       ? o.mute
       : arg == "--skip-title" ? o.skip_title
                               : o.compare) = true;
      continue;
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < argc && std::strncmp(argv[i + 1], "--", 2) != 0) {
      value = argv[++i];
    } else {
      return fail(arg + " needs a value");
    }
    if (arg == "--frames") {
      std::uint64_t n = 0;
      if (!parse_unsigned(value, kMaxFrames, n)) {
        return fail("--frames: '" + value + "' is not a whole number from 0 to " + std::to_string(kMaxFrames));
      }
      o.frames = n;
    } else if (arg == "--seed") {
      std::uint64_t n = 0;
      if (!parse_unsigned(value, std::numeric_limits<std::uint64_t>::max(), n)) {
        return fail("--seed: '" + value + "' is not a whole number from 0 to 18446744073709551615 (2^64-1)");
      }
      o.seed = n;
    } else if (arg == "--threads") {
      std::uint64_t n = 0;
      if (value == "auto") {
        o.threads = kAutoThreads;
      } else if (!parse_unsigned(value, kMaxThreads, n) || n == 0) {
        return fail("--threads: '" + value + "' is neither auto nor a whole number from 1 to " +
                    std::to_string(kMaxThreads));
      } else {
        o.threads = static_cast<std::uint32_t>(n);
      }
    } else if (arg == "--volume") {
      std::uint64_t n = 0;
      if (!parse_unsigned(value, 100, n)) return fail("--volume: '" + value + "' is not a whole number from 0 to 100");
      o.volume = static_cast<int>(n);
    } else if (arg == "--pooling") {
      if (value != "on" && value != "off") return fail("--pooling: '" + value + "' is not 'on' or 'off'");
      o.pooling = value == "on";
    } else if (arg == "--storage") {
      const engine::StorageMode modes[] = {engine::StorageMode::contiguous, engine::StorageMode::stable,
                                           engine::StorageMode::packed, engine::StorageMode::packed_pages};
      const auto named = std::find_if(std::begin(modes), std::end(modes),
                                      [&](engine::StorageMode m) { return value == engine::storage_mode_name(m); });
      if (named == std::end(modes)) {
        return fail("--storage: '" + value + "' is not 'contiguous', 'stable', 'packed' or 'packed_pages'");
      }
      o.storage = *named;
    } else if (arg == "--walk") {
      o.walk = parse_walk(value);
      if (!o.walk) return fail("--walk: '" + value + "' is not 'bitmap', 'swap_pop' or 'slot_order'");
    } else if (arg == "--render-path") {
      if (value != "auto" && value != "fast" && value != "instanced") {
        return fail("--render-path: '" + value + "' is not 'auto', 'fast' or 'instanced'");
      }
      if (value != "auto") o.render_path = value == "fast" ? engine::RenderPath::fast : engine::RenderPath::instanced;
    } else if (arg == "--window") {
      const auto x = value.find('x');
      std::uint64_t w = 0, h = 0;
      if (x == std::string::npos || !parse_unsigned(std::string_view(value).substr(0, x), 7680, w) ||
          !parse_unsigned(std::string_view(value).substr(x + 1), 4320, h) || w < 320 || h < 240) {
        return fail("--window: '" + value + "' is not WIDTHxHEIGHT with 320..7680 x 240..4320 pixels");
      }
      o.window_width = static_cast<int>(w);
      o.window_height = static_cast<int>(h);
    } else if (value.empty()) {
      return fail(arg + ": the file name is empty");
    } else if (arg == "--scenario") {
      o.scenario = value;
    } else if (arg == "--report") {
      o.report = value;
    } else if (arg == "--advise") {
      o.advise = value;
    } else if (arg == "--script") {
      o.script = value;
    } else if (arg == "--frame-csv") {
      o.frame_csv = value;
    } else if (arg == "--memory-map") {
      o.memory_map = value;
    } else if (arg == "--best-score") {
      o.best_score = value;
    } else {
      o.screenshot = value;
    }
  }
  if (o.headless && !o.screenshot.empty()) {
    return fail("--screenshot needs the renderer; it cannot be combined with --headless");
  }
  if (o.compare && !o.headless) return fail("--compare runs without a window; add --headless");
  if (o.compare && !o.script.empty()) {
    return fail("--script plays a single run; it cannot be combined with --compare");
  }
  if (o.compare && !o.advise.empty()) return fail("--advise needs a single run; it cannot be combined with --compare");
  if (o.headless && !o.best_score.empty()) {
    return fail("--best-score keeps a player's best from a window run; it cannot be combined with --headless");
  }
  if (o.compare && !o.memory_map.empty()) {
    return fail("--memory-map needs a single run; it cannot be combined with --compare");
  }
  result.options = o;
  return result;
}

}  // namespace game
