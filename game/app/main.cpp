// poolshot: the shooter. Parses the command line, loads the scenario, then runs the
// simulation headless (timed, with a report) or, with a display, in the runtime's window.
// Exit codes: 0 done; 1 the environment failed us (no display, report not writable);
// 2 the request was wrong (bad flag or value, bad scenario or script file).
#include "sim/atlas_cells.hpp"
#include "app/best_score.hpp"
#include "metrics/capacity_advisor.hpp"
#include "metrics/compare_chart.hpp"
#include "app/compare_run.hpp"
#include "app/game_app.hpp"
#include "app/headless_run.hpp"
#include "metrics/memory_map_picture.hpp"
#include "metrics/memory_snapshot.hpp"
#include "app/options.hpp"
#include "metrics/overlay_recorder.hpp"
#include "metrics/phase_recorder.hpp"
#include "metrics/report.hpp"
#include "sim/scenario.hpp"
#include "sim/script.hpp"
#include "sim/simulation.hpp"

#include <engine/application.hpp>

#include <SDL.h>
#include <nlohmann/json.hpp>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace {

bool offscreen_requested() {
  const char* driver = std::getenv("SDL_VIDEODRIVER");
  return driver && std::strcmp(driver, "offscreen") == 0;
}

bool display_available() { return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") || offscreen_requested(); }

// --headless --compare: the A/B run, its summary on stdout, and with --report the report,
// the two series as CSV and the chart as PNG next to it.
int run_compare_command(const game::Scenario& scenario, const std::string& scenario_path,
                        const game::Options& options) {
  game::Settings settings = game::settings_from(scenario);
  if (options.threads) settings.threads = *options.threads;
  const std::uint64_t seed = options.seed.value_or(scenario.seed);
  const game::CompareResult r =
      game::run_compare(scenario, seed, settings, options.frames.value_or(game::kDefaultHeadlessFrames));
  std::printf("poolshot: compared %" PRIu64
              " frames each, pooled vs heap: sim p50 %.3f vs %.3f ms, p99 %.3f vs %.3f ms, "
              "max %.3f vs %.3f ms, heap allocations %" PRIu64 " vs %" PRIu64 ", state hashes %s\n",
              r.frames, r.pooled.sim.p50, r.heap.sim.p50, r.pooled.sim.p99, r.heap.sim.p99, r.pooled.sim.max,
              r.heap.sim.max, r.pooled.heap_allocs_total, r.heap.heap_allocs_total, r.same_game() ? "equal" : "DIFFER");
  std::printf("poolshot: %s\n", game::compare_load_line(r).c_str());
  std::printf("poolshot: matched load: %s\n", game::compare_matched_line(r.matched).c_str());
  if (!options.report.empty()) {
    const std::string csv = game::sibling_path(options.report, ".csv"),
                      png = game::sibling_path(options.report, ".png");
    nlohmann::json report = game::compare_json(r);
    report["mode"] = "compare";
    report["scenario"] = scenario_path;
    report["autofire"] = false;  // the load is held fire (the report's "load")
    report["csv"] = csv;
    report["chart"] = png;
    std::string error;
    if (!game::write_report(options.report, report, error)) {
      std::fprintf(stderr, "poolshot: cannot write report '%s': %s\n", options.report.c_str(), error.c_str());
      return 1;
    }
    if (!game::write_compare_files(r, csv, png, error)) {
      std::fprintf(stderr, "poolshot: %s\n", error.c_str());
      return 1;
    }
  }
  if (!r.same_game()) {
    std::fprintf(stderr, "poolshot: pooling changed the game: the two runs ended on different state hashes\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const game::ParsedOptions parsed = game::parse_options(argc, argv);
  if (parsed.help) {
    std::fputs(game::usage(), stdout);
    return 0;
  }
  if (!parsed.options) {
    // One line that names the flag and where the rest is: 45 lines of usage buried it.
    std::fprintf(stderr, "poolshot: %s (see --help)\n", parsed.error.c_str());
    return 2;
  }
  const game::Options& options = *parsed.options;
  const std::string scenario_path =
      options.scenario.empty() ? std::string(POOLSHOT_SCENARIO_DIR) + "/default.json" : options.scenario;
  game::ScenarioResult loaded = game::load_scenario(scenario_path);
  if (!loaded.scenario) {
    std::fprintf(stderr, "poolshot: %s\n", loaded.error.c_str());
    return 2;
  }
  game::Scenario& scenario = *loaded.scenario;
  if (options.pooling) scenario.pooling = *options.pooling;
  if (options.storage) scenario.storage = *options.storage;
  if (options.walk) scenario.walk = *options.walk;
  std::optional<game::ScriptPlayer> script;
  if (!options.script.empty()) {
    game::ScriptResult parsed_script = game::load_script(options.script);
    if (!parsed_script.script) {
      std::fprintf(stderr, "poolshot: %s\n", parsed_script.error.c_str());
      return 2;
    }
    script.emplace(std::move(*parsed_script.script));
  }
  // Steps to run: --frames, else the script's length; none: headless 600, a window until quit.
  const bool fixed_length = options.frames.has_value() || script.has_value();
  const std::uint64_t length = options.frames ? *options.frames : script ? script->script().frames : 0;

  if (!options.headless && !display_available()) {
    std::fprintf(stderr,
                 "poolshot: no display found; run with --headless, or set "
                 "SDL_VIDEODRIVER=offscreen to render without a screen\n");
    return 1;
  }
  if (options.compare) return run_compare_command(scenario, scenario_path, options);
  game::set_pacing(options.pace);
  game::Simulation sim(scenario, options.seed.value_or(scenario.seed));
  sim.settings().autofire = options.autofire;
  if (options.threads) sim.settings().threads = *options.threads;
  game::FrameSummary summary;
  game::OverlayModel overlay;              // what the debug overlay shows at the end: for the report and --advise
  std::vector<game::PhaseSummary> phases;  // the spans between settings changes: for the report
  game::ReportRender render;               // the report's "render": no path while headless
  render.requested = game::requested_render_path(options);
  if (options.headless) {
    const std::uint64_t steps = fixed_length ? length : game::kDefaultHeadlessFrames;
    game::OverlayRecorder recorder;
    game::PhaseRecorder phase_recorder(sim, steps);
    game::StepObservers observers{&recorder, &phase_recorder};
    summary = script ? game::run_headless(sim, steps, *script, game::kDefaultWarmupFrames, &observers)
                     : game::run_headless(sim, steps, game::Input{}, game::kDefaultWarmupFrames, &observers);
    overlay = recorder.model(sim);
    phases = phase_recorder.summaries();
  } else {
    engine::AppConfig config;
    // No screen to show or sync to: the runtime's offscreen mode (real GL, no vsync).
    config.mode = offscreen_requested() ? engine::RunMode::offscreen : engine::RunMode::windowed;
    config.vsync = config.mode == engine::RunMode::windowed;
    // A player gets 1280x720, room for the docked overlay beside the playfield; a run with a
    // fixed length or a script (screenshots, render figures) keeps the world's own size.
    config.width = options.window_width > 0 ? options.window_width
                   : fixed_length           ? static_cast<int>(scenario.world_width)
                                            : 1280;
    config.height = options.window_height > 0 ? options.window_height
                    : fixed_length            ? static_cast<int>(scenario.world_height)
                                              : 720;
    config.max_frames = fixed_length ? static_cast<std::int64_t>(length) : -1;
    config.screenshot_path = options.screenshot;
    // At most 4 steps per rendered frame: when the machine cannot keep up (300k objects on
    // the heap, software GL) the game slows down instead of spending ever longer frames
    // catching up, so the window keeps answering and the panel stays clickable.
    config.max_frame_seconds = 4.0 / 60.0;
    config.atlas_path = POOLSHOT_ATLAS_PATH;
    // auto (no --render-path): the runtime picks fast or instanced from GL_RENDERER at init.
    config.auto_render_path = !options.render_path.has_value();
    config.render_path = options.render_path.value_or(engine::RenderPath::fast);
    config.atlas_cell_px = game::atlas::kCellPixels;
    config.stats_window = game::kOverlayStatsFrames;  // the overlay's longest window, 20 s
    config.stats_events = game::kOverlayStatsEvents;
    // A run with a fixed length or a script (tests, screenshots, measurements): one step per
    // frame and ImGui's clock from the frame index, so its pictures are the same every time
    // and each step has the render time of its own frame.
    config.deterministic_time = fixed_length;
    engine::Application app(config);
    // A person playing gets the title screen and a best score kept between runs; a run with a
    // fixed length or a script (tests, screenshots, figures) starts playing and keeps none,
    // unless --best-score names the file.
    const bool interactive = !fixed_length && !options.skip_title;
    std::optional<game::BestScoreFile> best;
    if (!options.best_score.empty()) {
      best.emplace(options.best_score);  // asked for by name: kept in any run, scripted or not
    } else if (!fixed_length) {
      // SDL_GetPrefPath creates its folder: not asked for when $POOLSHOT_PREF_DIR replaces it.
      const char* override_dir = std::getenv("POOLSHOT_PREF_DIR");
      char* pref = override_dir && override_dir[0] ? nullptr : SDL_GetPrefPath("poolshot", "poolshot");
      const std::string path = game::best_score_path(pref);
      SDL_free(pref);
      if (path.empty()) {
        std::fprintf(stderr, "poolshot: no folder for the best score (%s); it will not be kept\n", SDL_GetError());
      } else {
        best.emplace(path);
      }
    }
    game::GameApp game_app(sim, app, game::kDefaultWarmupFrames, script ? &*script : nullptr, !interactive,
                           best ? &*best : nullptr);
    game_app.audio().set_volume(static_cast<float>(options.volume) / 100.0f);
    game_app.audio().set_muted(options.mute);
    game_app.audio().open_device();      // without one: one line on stderr, and the game runs silent
    const int code = app.run(game_app);  // prints its own one-line failure
    if (code != 0) return code;
    game_app.finish();
    summary = game_app.summary();
    overlay = game_app.overlay_model();
    phases = game_app.phases().summaries();
    const engine::RenderPathInfo drew = app.render_path_info();
    render.path = engine::render_path_name(drew.path);
    render.gl_renderer = drew.gl_renderer;
    render.software_gl = engine::is_software_renderer(drew.gl_renderer);
  }

  const game::SimStats& stats = sim.stats();
  const auto live = [&](game::PoolId id) { return stats.pools[static_cast<std::size_t>(id)].live; };
  std::printf("poolshot: simulated %" PRIu64
              " frames, state_hash %s, sim p50 %.3f ms p99 %.3f ms, "
              "live bullets %zu enemy_bullets %zu particles %zu enemies %zu, score %" PRId64 "\n",
              stats.frame, game::hex_hash(sim.state_hash()).c_str(), summary.sim_ms.p50, summary.sim_ms.p99,
              live(game::PoolId::bullets), live(game::PoolId::enemy_bullets), live(game::PoolId::particles),
              live(game::PoolId::enemies), stats.score);

  // The memory map at the end of the run: the report's "memory" section and --memory-map.
  game::MemorySnapshot memory;
  memory.refresh(sim);
  if (!options.memory_map.empty()) {
    if (const engine::Status s = game::write_memory_map_png(options.memory_map, memory); !s) {
      std::fprintf(stderr, "poolshot: --memory-map: %s\n", s.message().c_str());
      return 1;
    }
  }
  if (!options.frame_csv.empty()) {
    std::string error;
    if (!game::write_frame_csv(options.frame_csv, summary.series, error)) {
      std::fprintf(stderr, "poolshot: cannot write frame CSV '%s': %s\n", options.frame_csv.c_str(), error.c_str());
      return 1;
    }
  }
  if (!options.report.empty()) {
    std::string error;
    const auto report =
        game::make_report(sim, summary,
                          {scenario_path, options.headless, &overlay, &phases, options.script, &memory, render});
    if (!game::write_report(options.report, report, error)) {
      std::fprintf(stderr, "poolshot: cannot write report '%s': %s\n", options.report.c_str(), error.c_str());
      return 1;
    }
  }
  if (!options.advise.empty()) {
    std::string error;
    if (!game::write_advised_scenario(scenario_path, options.advise, overlay.advice, error)) {
      std::fprintf(stderr, "poolshot: %s\n", error.c_str());
      return 1;
    }
    std::printf("poolshot: wrote %s: the scenario with initial capacities for the peaks of this run\n",
                options.advise.c_str());
  }
  return 0;
}
