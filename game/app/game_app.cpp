#include "app/game_app.hpp"

#include "app/frame_camera.hpp"
#include "app/input_bindings.hpp"
#include "app/sprite_list.hpp"

#include "metrics/alloc_counter.hpp"
#include "metrics/compare_chart.hpp"
#include "metrics/csv_export.hpp"
#include "metrics/matched_load.hpp"
#include "app/headless_run.hpp"
#include "metrics/overlay_recorder.hpp"

#include <engine/imgui_layer.hpp>

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace game {

namespace {

// Wall time the overlay's A/B run may take per rendered frame: the window stays usable.
constexpr double kCompareBudgetMs = 12.0;

}  // namespace

GameApp::GameApp(Simulation& sim, engine::Application& app, std::uint64_t warmup_frames, ScriptPlayer* script,
                 bool skip_title, BestScoreFile* best)
    : sim_(sim),
      app_(app),
      script_(script),
      log_(kMaxTimedFrames, warmup_frames),
      phases_(sim, app.config().max_frames >= 0 ? static_cast<std::uint64_t>(app.config().max_frames)
                                                : std::uint64_t{kMaxTimedFrames}),
      steps_(sim, nullptr, &phases_, false),  // the window's frames are logged per frame (log_committed_frame)
      best_file_(best),
      flow_(skip_title, best ? best->loaded() : 0) {
  install_shortcut_keys(app.input());  // F1 / F11 work while the overlay has the keyboard
}

GameApp::~GameApp() = default;

engine::RuntimeActions GameApp::runtime_actions(const engine::InputState& input) {
  engine::RuntimeActions actions = game::runtime_actions(input);
  // The pause binding goes to the flow, the one owner of pause; the clock follows it.
  if (actions.toggle_pause) flow_.toggle_pause();
  actions.toggle_pause = false;
  reading_panel_ = reads_panel(input);
  sync_clock();
  return actions;
}

bool GameApp::reads_panel(const engine::InputState& input) const {
  // A script plays by itself; the title, pause and game-over screens run no game to pause.
  if (script_ || !app_.overlay_visible() || flow_.state() != FlowState::playing) return false;
  // Fire or movement held (or autofire on) means the player is playing: a click on OFF while
  // holding fire shows its jump on the graph at once.
  if (fire_held(input) || move_held(input) || sim_.settings().autofire) return false;
  if (!engine::imgui_capture().mouse || ImGui::GetCurrentContext() == nullptr) return false;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const ScreenRect panel = panel_.panel_rect();
  return !panel.empty() && mouse.x >= panel.x0 && mouse.x < panel.x1 && mouse.y >= panel.y0 && mouse.y < panel.y1;
}

void GameApp::sync_clock() { app_.set_paused(flow_.wants_clock_paused() || reading_panel_); }

void GameApp::place_camera(engine::Camera2D& camera, glm::ivec2 window_size) {
  const float panel = app_.overlay_visible() ? OverlayPanel::docked_width(static_cast<float>(window_size.x)) : 0.0f;
  playfield_ = playfield_rect(window_size, panel);
  // The world goes below the score line as it was drawn last frame (its height changes only
  // when a line comes or goes), inset so the edge drawn around it stays in the playfield.
  const float hud_bottom = hud_rect_.empty() ? playfield_.y0 + kHudBandGuess : hud_rect_.y1;
  ScreenRect area = world_area(playfield_, hud_bottom + kEdgeInset);
  area = {area.x0 + kEdgeInset, area.y0, area.x1 - kEdgeInset, area.y1 - kEdgeInset};
  camera = fit_camera(window_size, area, sim_.world());
  world_rect_ = world_on_screen(camera, sim_.world());
}

void GameApp::fixed_update(const engine::InputState& input, double /*dt: always Simulation::kStepSeconds*/) {
  const StepVerbs verbs = step_verbs(input);
  // T toggles autofire, through the settings struct like every other setting.
  if (!script_ && verbs.toggle_autofire) sim_.settings().autofire = !sim_.settings().autofire;
  if (verbs.toggle_mute) audio_.toggle_mute();  // mute is not game input: scripts keep it
  // The title screen runs no step: nothing moves, nothing spawns. Fire (Space, a click on the
  // playfield) starts the game; so do Enter and the Play button (hud()).
  if (!flow_.simulation_runs()) {
    if (flow_.state() == FlowState::title && verbs.fire_pressed) flow_.start();
    return;
  }
  // The mouse aims through the camera placed for this frame, the one render draws with.
  Input step_input = script_ ? script_->next(sim_.settings(), sim_.player_position())
                             : map_input(input, app_.camera(), sim_.player_position());
  step_input.restart = step_input.restart || restart_pending_;
  restart_pending_ = false;
  const StepResult step = steps_.step(step_input);  // timed and counted; phases_ is told
  frame_allocs_ += step.allocations;
  const SimStats& after = sim_.stats();
  frame_tag_ = static_cast<std::uint8_t>(frame_tag_ | step.tag);
  frame_switch_ = frame_switch_.then(step.switched);
  // Pool growths and settings switches become FrameStats events, so the overlay can mark
  // them on its graph.
  record_growth_events(sim_, app_.stats(), growth_records_seen_);
  record_switch_events(sim_, app_.stats());
  rates_.sample(after.frame, after.pools);
  audio_.after_step(after);
  flow_.observe(after.game_over, after.score);
  if (flow_.take_best_to_save() && best_file_) best_file_->save(flow_.best_score());
}

void GameApp::log_committed_frame() {
  engine::FrameStats& stats = app_.stats();
  const engine::FrameSample* last = stats.latest();
  if (!last || last->frame == last_logged_frame_) return;
  const double render_ms = last->ms[static_cast<std::size_t>(engine::FrameTimer::render)];
  log_.record(last->ms[static_cast<std::size_t>(engine::FrameTimer::simulation)], render_ms, last->counters.allocations,
              logged_frame_tag_, logged_frame_switch_, last->counters.live_objects);
  // Each step of that frame gets the frame's render time (one step per frame when scripted).
  for (std::uint64_t step = frame_first_step_; step <= frame_last_step_; ++step) phases_.set_render_ms(step, render_ms);
  last_logged_frame_ = last->frame;
}

void GameApp::render(engine::RenderContext& context) {
  // The frame FrameStats committed last is complete now (times and allocations): log it.
  log_committed_frame();
  frame_first_step_ = frame_last_step_ + 1;
  frame_last_step_ = phases_.steps();
  engine::FrameStats& stats = app_.stats();
  stats.set_allocations(frame_allocs_);
  // A frame with no step (paused, title screen) is still a heap frame while pooling is off.
  logged_frame_tag_ = static_cast<std::uint8_t>(frame_tag_ | frame_tag(sim_));
  logged_frame_switch_ = frame_switch_;
  // As OverlayRecorder tags a step: the graph shades the heap spans, and the matched-load
  // comparison (matched_load.hpp) leaves switch, growth and rebuild frames out.
  stats.set_tag(graph_frame_tag(frame_tag_, sim_));
  stats.set_live_objects(live_objects(sim_.stats()));
  frame_allocs_ = 0;
  frame_tag_ = 0;
  frame_switch_ = {};

  if (compare_ && !compare_->done()) compare_->advance(kCompareBudgetMs);

  // The camera and the world's rectangle were placed at the top of the frame (place_camera);
  // render only reads them: the sprites are clipped to the world, inside its drawn edge.
  const int x0 = static_cast<int>(std::lround(world_rect_.x0)), y0 = static_cast<int>(std::lround(world_rect_.y0));
  const int x1 = static_cast<int>(std::lround(world_rect_.x1)), y1 = static_cast<int>(std::lround(world_rect_.y1));
  context.clip = {x0, y0, std::max(1, x1 - x0), std::max(1, y1 - y0)};
  collect_sprites(sim_, context.sprites, context.alpha);
}

void GameApp::finish() { log_committed_frame(); }

OverlayViewOptions GameApp::view_options() const {
  OverlayViewOptions view = panel_.view();
  // Scripted runs step once per frame whatever the wall clock says: count frames as steps.
  view.fixed_frame_seconds = app_.deterministic() ? app_.config().step_seconds : 0.0;
  return view;
}

OverlayModel GameApp::overlay_model() const { return make_overlay_model({sim_, app_.stats(), rates_}, view_options()); }

void GameApp::start_compare(std::uint64_t frames) {
  compare_ = std::make_unique<CompareRun>(sim_.scenario(), sim_.seed(), sim_.settings(), frames);
}

void GameApp::carry_out(const OverlayCommands& c) {
  if (c.settings) {
    sim_.settings() = *c.settings;  // the next step applies it
    // Paused for reading the panel: one step, so a click on OFF or ON shows at once.
    if (reading_panel_) app_.clock().request_single_step();
  }
  if (c.toggle_pause) {  // the panel's Pause button: the same toggle as P
    flow_.toggle_pause();
    sync_clock();
  }
  if (c.single_step) app_.clock().request_single_step();
  if (c.volume) audio_.set_volume(*c.volume);
  if (c.muted) audio_.set_muted(*c.muted);
  if (c.vsync && !app_.set_vsync(*c.vsync)) panel_.set_message("vsync: the driver refused the change");
  if (c.reset_stats) {
    app_.stats().clear();
    rates_.clear();
    panel_.set_message("statistics reset");
  }
  if (c.export_csv) {
    const ExportedFiles files = export_overlay_csv(model_, c.csv_dir);
    panel_.set_message(files.ok() ? "wrote " + files.frames_path + " and " + files.growth_path : files.error);
  }
  if (c.start_compare) start_compare(c.compare_frames);
  if (c.cancel_compare) compare_.reset();
  if (c.export_compare && compare_ && compare_->done()) {
    std::string base = "poolshot_compare_" + std::to_string(sim_.frame());
    if (!c.csv_dir.empty()) base = (c.csv_dir.back() == '/' ? c.csv_dir : c.csv_dir + "/") + base;
    std::string error;
    panel_.set_message(write_compare_files(compare_->result(), base + ".csv", base + ".png", error)
                           ? "wrote " + base + ".csv and " + base + ".png"
                           : error);
  }
}

void GameApp::imgui() {
  update_overlay_model(model_, {sim_, app_.stats(), rates_}, view_options());
  OverlayRuntime runtime;
  runtime.paused = flow_.state() == FlowState::paused;  // the flow's pause, not the panel's
  runtime.reading_panel = reading_panel_;
  runtime.vsync = app_.vsync();
  runtime.deterministic = app_.deterministic();
  runtime.sound = {audio_.device_open(), audio_.volume(), audio_.muted()};
  const engine::RenderPathInfo render = app_.render_path_info();
  runtime.render = {engine::render_path_name(render.path), render.chosen_by_auto, render.gl_renderer,
                    engine::is_software_renderer(render.gl_renderer)};
  if (memory_.due(sim_.frame())) memory_.refresh(sim_);
  const CompareStatus compare = compare_ ? CompareStatus{&compare_->result(), compare_->progress()} : CompareStatus{};
  carry_out(panel_.draw({model_, sim_.settings(), runtime, compare, &memory_}));
}

}  // namespace game
