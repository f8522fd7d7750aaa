#include <epoxy/gl.h>

#include <engine/application.hpp>
#include <engine/screenshot.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#ifndef POOLSHOT_ASSET_DIR
#define POOLSHOT_ASSET_DIR "assets"
#endif

namespace engine {

namespace {

double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}
double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

FixedStepConfig clock_config(const AppConfig& c) {
  FixedStepConfig f;
  f.step_seconds = c.step_seconds;
  f.max_frame_seconds = c.max_frame_seconds;
  f.lockstep = c.deterministic_time;
  return f;
}

const char* mode_name(RunMode mode) {
  switch (mode) {
    case RunMode::windowed:
      return "windowed";
    case RunMode::offscreen:
      return "offscreen";
  }
  return "?";
}

}  // namespace

std::string default_asset_dir() {
  const char* env = std::getenv("POOLSHOT_ASSET_DIR");
  return env != nullptr && env[0] != '\0' ? std::string(env) : std::string(POOLSHOT_ASSET_DIR);
}

Application::Application(AppConfig config)
    : config_(std::move(config)),
      asset_dir_(config_.asset_dir.empty() ? default_asset_dir() : config_.asset_dir),
      clock_(clock_config(config_)),
      stats_(config_.stats_window, config_.stats_events),
      batch_(4096),
      overlay_visible_(config_.overlay_visible) {}

Application::~Application() { shutdown(); }

std::string Application::asset_path(const std::string& relative) const {
  if (relative.empty() || relative.front() == '/') return relative;
  return asset_dir_ + "/" + relative;
}

void Application::log_line(const std::string& message) const {
  std::fprintf(stderr, "%s: %s\n", config_.name.c_str(), message.c_str());
}

Status Application::init() {
  if (initialised_) return Status::ok();
  Status s = init_video();
  if (!s) shutdown();
  return s;
}

Status Application::init_video() {
  // Events and game controllers first: the window and the input mapper both need them.
  if (SDL_InitSubSystem(SDL_INIT_EVENTS | SDL_INIT_GAMECONTROLLER) != 0) {
    return Status::error(std::string("cannot start SDL input (") + SDL_GetError() + ")");
  }
  sdl_events_ = true;
  WindowConfig wc;
  wc.title = config_.title;
  wc.width = config_.width;
  wc.height = config_.height;
  wc.offscreen = config_.mode == RunMode::offscreen;
  wc.vsync = config_.vsync;
  wc.fullscreen = config_.fullscreen;
  if (Status s = window_.open(wc); !s) return s;
  if (Status s = renderer_.init(asset_path("shaders")); !s) return s;
  // auto: the path is the GL implementation's, known only now that the context exists.
  const auto* gl_renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  gl_renderer_ = gl_renderer != nullptr ? gl_renderer : "";
  renderer_.set_path(config_.auto_render_path ? choose_render_path(gl_renderer) : config_.render_path);
  if (!config_.atlas_path.empty()) {
    if (Status s = renderer_.load_atlas(asset_path(config_.atlas_path), config_.atlas_cell_px); !s) return s;
  }
  if (Status s = imgui_.init(window_.sdl_window(), window_.gl_context()); !s) return s;
  const glm::ivec2 size = window_.window_size();
  camera_.viewport = {static_cast<float>(size.x), static_cast<float>(size.y)};
  log_line(std::string(mode_name(config_.mode)) + ": video driver '" + window_.video_driver() + "', GL renderer '" +
           window_.gl_renderer() + "', OpenGL " + window_.gl_version() + ", vsync " +
           (window_.vsync() ? "on" : (config_.vsync ? "refused by the driver" : "off")) + ", render path " +
           render_path_name(renderer_.path()) + (config_.auto_render_path ? " (auto)" : ""));
  initialised_ = true;
  return Status::ok();
}

void Application::shutdown() noexcept {
  // Reverse order of init_video().
  imgui_.shutdown();
  renderer_.shutdown();
  window_.close();
  input_.close_gamepads();
  if (sdl_events_) SDL_QuitSubSystem(SDL_INIT_EVENTS | SDL_INIT_GAMECONTROLLER);
  sdl_events_ = false;
  // Last one out frees SDL's remaining state (hints, allocations) so leak checkers stay quiet.
  if (SDL_WasInit(SDL_INIT_EVERYTHING) == 0) SDL_Quit();
  initialised_ = false;
}

int Application::run(AppHooks& hooks) {
  if (Status s = init(); !s) {
    log_line(s.message());
    return 1;
  }
  const int code = run_video(hooks);
  shutdown();
  return code;
}

std::uint32_t Application::steps_allowed(int steps) const noexcept {
  if (steps <= 0) return 0;
  auto n = static_cast<std::uint64_t>(steps);
  if (config_.max_frames >= 0) {
    const auto limit = static_cast<std::uint64_t>(config_.max_frames);
    n = std::min(n, limit > sim_steps_done_ ? limit - sim_steps_done_ : 0);
  }
  return static_cast<std::uint32_t>(n);
}

bool Application::finished(const AppHooks& hooks) const {
  if (quit_requested_ || hooks.wants_quit()) return true;
  return config_.max_frames >= 0 && sim_steps_done_ >= static_cast<std::uint64_t>(config_.max_frames);
}

void Application::poll_events() {
  SDL_Event event;
  while (SDL_PollEvent(&event) != 0) {
    imgui_.process_event(event);  // ImGui first: it decides what it keeps
    input_.handle_event(event, imgui_.capture());
  }
}

void Application::apply_runtime_actions(const InputState& input, const RuntimeActions& actions) {
  if (actions.toggle_pause) clock_.toggle_pause();
  if (actions.single_step) clock_.request_single_step();
  if (actions.toggle_overlay) overlay_visible_ = !overlay_visible_;
  if (actions.toggle_fullscreen) window_.toggle_fullscreen();
  if (actions.quit || input.window_closed) quit_requested_ = true;
  input_.clear_frame_edges();
}

int Application::run_video(AppHooks& hooks) {
  int exit_code = 0;
  auto previous = Clock::now();
  while (exit_code == 0) {
    stats_.begin_frame();
    const auto frame_start = Clock::now();
    const double elapsed = seconds_between(previous, frame_start);
    previous = frame_start;

    poll_events();
    const glm::ivec2 size = window_.window_size();
    camera_.viewport = {static_cast<float>(std::max(size.x, 1)), static_cast<float>(std::max(size.y, 1))};
    InputState input = input_.state();
    apply_runtime_actions(input, hooks.runtime_actions(input));
    hooks.place_camera(camera_, size);  // the frame's camera, fixed before any step reads it

    // Quit asked outside a step (overlay button, request_quit() in render): no more
    // simulation, but this frame is still drawn so it can be the screenshot.
    const bool stopping = finished(hooks);
    const int advanced = clock_.advance(elapsed);
    const std::uint32_t steps = stopping ? 0u : steps_allowed(advanced);
    const auto sim_start = Clock::now();
    for (std::uint32_t i = 0; i < steps; ++i) {
      input = input_.state();
      input.paused = clock_.paused();
      hooks.fixed_update(input, config_.step_seconds);
      input_.clear_step_edges();  // a press is seen by exactly one step
      ++sim_steps_done_;
    }
    stats_.add_sim_steps(steps);
    stats_.set_time(FrameTimer::simulation, ms_between(sim_start, Clock::now()));

    const bool last_frame = stopping || finished(hooks);
    if (Status s = render_frame(hooks, last_frame); !s) {
      log_line(s.message());
      exit_code = 1;
    }
    // A minimised window swaps without waiting for vsync: do not spin a core on it.
    if (window_.minimized()) SDL_Delay(16);
    stats_.set_time(FrameTimer::frame, ms_between(frame_start, Clock::now()));
    stats_.end_frame();
    ++frame_index_;
    if (last_frame) break;
  }
  return exit_code;
}

Status Application::render_frame(AppHooks& hooks, bool last_frame) {
  const auto render_start = Clock::now();
  last_input_ = input_.state();
  last_input_.paused = clock_.paused();
  last_input_.gamepads = input_.gamepad_count();
  batch_.clear();
  const glm::ivec2 size = window_.window_size();
  RenderContext context{batch_, camera_, static_cast<float>(clock_.interpolation()), last_input_, size};
  hooks.render(context);

  const glm::ivec2 fb = window_.drawable_size();
  const bool clipped = context.clip.z > 0 && context.clip.w > 0;
  if (clipped) {  // the game's playfield: framebuffer pixels, origin bottom-left
    const float sx = static_cast<float>(fb.x) / static_cast<float>(std::max(size.x, 1));
    const float sy = static_cast<float>(fb.y) / static_cast<float>(std::max(size.y, 1));
    const glm::ivec4& r = context.clip;
    renderer_.set_scissor(glm::ivec4(static_cast<int>(static_cast<float>(r.x) * sx),
                                     static_cast<int>(static_cast<float>(fb.y) - static_cast<float>(r.y + r.w) * sy),
                                     static_cast<int>(static_cast<float>(r.z) * sx),
                                     static_cast<int>(static_cast<float>(r.w) * sy)));
  } else {
    renderer_.set_scissor(glm::ivec4(0));
  }
  // The CPU's half first (the sprites sorted and stamped, the overlay built), while a software
  // rasteriser (llvmpipe) may still be drawing the previous frame on its own threads; only then
  // does that frame go to the screen, and this one is drawn.
  renderer_.upload(batch_);
  renderer_.prepare(camera_, fb.x, fb.y);
  imgui_.begin_frame(config_.deterministic_time ? config_.step_seconds : 0.0);
  hooks.hud();
  if (overlay_visible_) hooks.imgui();
  imgui_.end_frame();
  const auto present_start = Clock::now();
  present();  // waits for the previous frame's drawing: not this frame's rendering time
  const auto draw_start = Clock::now();

  glViewport(0, 0, fb.x, fb.y);
  viewport_ = fb;
  const std::uint32_t c = config_.clear_color;
  glClearColor(static_cast<float>(c & 0xffu) / 255.0f, static_cast<float>((c >> 8) & 0xffu) / 255.0f,
               static_cast<float>((c >> 16) & 0xffu) / 255.0f, static_cast<float>((c >> 24) & 0xffu) / 255.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const RenderCounters counters = renderer_.submit(camera_, fb.x, fb.y);
  stats_.set_draw_stats(counters.draw_calls, counters.sprites);
  imgui_.draw();
  // Hands the frame to the driver now, so llvmpipe draws it while the next frame is simulated
  // and built. (An offscreen swap flushes nothing: without this the next frame's first texture
  // upload waited for this whole frame to be drawn, 8-10 ms holding fire.)
  glFlush();
  stats_.set_time(FrameTimer::render, ms_between(render_start, present_start) + ms_between(draw_start, Clock::now()));

  Status result;
  // Read back before the swap: afterwards the back buffer is undefined.
  if (!pending_screenshot_.empty()) {
    result = save_screenshot(pending_screenshot_, fb.x, fb.y);
    pending_screenshot_.clear();
  }
  if (last_frame && !config_.screenshot_path.empty() && result) {
    result = save_screenshot(config_.screenshot_path, fb.x, fb.y);
  }
  frame_to_present_ = true;
  if (last_frame) present();
  return result;
}

void Application::present() noexcept {
  if (!frame_to_present_) return;
  frame_to_present_ = false;
  window_.swap();
}

}  // namespace engine
