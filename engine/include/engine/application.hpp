#pragma once
// engine::Application: owns the window, GL, ImGui, the sprite renderer, input and frame
// stats, and runs the fixed-step loop, calling the game through AppHooks. The two ways to
// run share this one loop:
//   windowed   a real window (default)
//   offscreen  SDL's offscreen driver: real GL through EGL, pixels identical to a window,
//              nothing on screen (also what SDL_VIDEODRIVER=offscreen gives "windowed")
// A run with no video at all is the game's own: game::StepLoop (game/metrics/step_loop.hpp)
// steps the simulation with the counters a headless report needs, so the runtime keeps no
// second, headless loop.
//
// Per frame (windowed/offscreen):
//   events -> ImGui first, then InputMapper (minus what ImGui captured)
//   hooks.runtime_actions(input): the game's bindings -> pause, step, overlay, fullscreen,
//   quit, acted on here (a closed window quits whatever the game binds)
//   hooks.place_camera(camera, window size): the frame's one camera, before any step
//   0..n fixed steps -> hooks.fixed_update(input, dt) (mouse aim maps through that camera)
//   hooks.render(context) fills a SpriteBatch, reading that camera; the batch sorted and stamped,
//   hooks.hud() -> always, hooks.imgui() -> the overlay, while visible (the CPU's half)
//   swap of the previous frame (so llvmpipe draws it while this frame's CPU half runs)
//   clear, sprites (inside context.clip), the overlay drawn, glFlush
//   screenshot (if asked, before the swap); the last frame is swapped at once
#include <engine/camera.hpp>
#include <engine/fixed_step.hpp>
#include <engine/frame_stats.hpp>
#include <engine/imgui_layer.hpp>
#include <engine/input.hpp>
#include <engine/sprite.hpp>
#include <engine/sprite_batch.hpp>
#include <engine/sprite_renderer.hpp>
#include <engine/status.hpp>
#include <engine/window.hpp>

#include <glm/vec2.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace engine {

enum class RunMode : std::uint8_t { windowed, offscreen };

struct AppConfig {
  std::string name = "poolshot";   // prefix of every line the runtime prints
  std::string title = "Poolshot";  // window title
  int width = 1280;                // window size (logical pixels)
  int height = 720;
  RunMode mode = RunMode::windowed;
  bool vsync = true;  // a driver that refuses is not an error
  bool fullscreen = false;
  std::int64_t max_frames = -1;                  // stop after this many simulation steps; < 0: until quit
  std::string screenshot_path;                   // non-empty: the last rendered frame (overlay included)
                                                 // is written there as PNG; failure makes run() return 1
  std::string asset_dir;                         // empty: $POOLSHOT_ASSET_DIR, else the source tree's assets/
  std::string atlas_path;                        // empty: built-in atlas (BuiltinCell); relative: under asset_dir
  int atlas_cell_px = 32;                        // square cell size of atlas_path
  bool deterministic_time = false;               // exactly one fixed step per rendered frame and ImGui's
                                                 // clock from the frame index: bit-identical frames
  double step_seconds = 1.0 / 60.0;              // fixed simulation dt
  double max_frame_seconds = 0.25;               // longer frames are clamped (no catch-up spiral)
  std::size_t stats_window = 600;                // frames the p50/p99/max cover
  std::size_t stats_events = 256;                // events FrameStats keeps
  bool overlay_visible = true;                   // F1 toggles; hooks.imgui() runs only while visible
  std::uint32_t clear_color = rgba(12, 14, 20);  // background, packed like Sprite::color
  RenderPath render_path = RenderPath::fast;     // fast: small sprites stamped on the CPU (5x+
                                                 // cheaper on llvmpipe); instanced: every sprite a
                                                 // GL quad. renderer().set_path() switches live
  bool auto_render_path = false;                 // true: render_path is ignored; init() picks the
                                                 // path from GL_RENDERER (choose_render_path)
};

// Which sprite path is drawing and where it came from: the overlay and the report name it.
struct RenderPathInfo {
  RenderPath path = RenderPath::fast;  // the renderer's path now
  bool chosen_by_auto = false;         // AppConfig::auto_render_path picked it at init()
  const char* gl_renderer = "";        // glGetString(GL_RENDERER) at init(); "" before, or without GL
};

// What the game gets to draw one frame.
struct RenderContext {
  SpriteBatch& sprites;     // empty at the start of each frame: push this frame's sprites
  const Camera2D& camera;   // this frame's, from AppHooks::place_camera: steps aimed through it
  float alpha;              // 0 = previous sim state .. 1 = latest (1 when paused/deterministic)
  const InputState& input;  // latest input (e.g. to draw a crosshair at render rate)
  glm::ivec2 window_size;   // logical pixels
  // Where the sprites may draw, in window pixels (origin top-left): x, y, width, height. The
  // game narrows it to leave room for a docked panel; width or height 0: the whole window.
  glm::ivec4 clip{0, 0, 0, 0};
};

// What the runtime does itself this frame; the game's bindings decide (AppHooks::runtime_actions).
struct RuntimeActions {
  bool toggle_pause = false;
  bool single_step = false;  // while paused: run one fixed step
  bool toggle_overlay = false;
  bool toggle_fullscreen = false;
  bool quit = false;
};

// The game, as the runtime sees it.
class AppHooks {
 public:
  virtual ~AppHooks() = default;
  // Once per frame, before the steps, from input.frame_edges (not called headless).
  virtual RuntimeActions runtime_actions(const InputState& /*input*/) { return {}; }
  // Once per frame, after the runtime actions and before the steps: where the camera looks.
  // camera.viewport is the window size already; the steps and render use this camera as is.
  virtual void place_camera(Camera2D& /*camera*/, glm::ivec2 /*window_size*/) {}
  virtual void fixed_update(const InputState& input, double dt) = 0;  // one simulation step
  virtual void render(RenderContext& context) = 0;                    // once per frame
  virtual void hud() {}                                               // ImGui, every frame (menus, score)
  virtual void imgui() {}                                             // overlay; only while visible
  virtual bool wants_quit() const { return false; }                   // checked after the steps
};

class Application {
 public:
  explicit Application(AppConfig config);
  ~Application();  // shutdown()
  Application(const Application&) = delete;
  Application& operator=(const Application&) = delete;

  // Opens what the mode needs (SDL, window, GL, renderer, ImGui). Idempotent. On failure
  // everything is closed again and the Status is one line: cause + what to do.
  Status init();
  // init() if needed, then the loop until quit / max_frames. Prints a failure as ONE line
  // "<name>: <message>" on stderr. Returns the process exit code: 0, or 1 on failure.
  int run(AppHooks& hooks);
  void shutdown() noexcept;  // reverse order of init

  // Available to the game while running (from its hooks).
  FrameStats& stats() noexcept { return stats_; }
  const FrameStats& stats() const noexcept { return stats_; }
  FixedStepClock& clock() noexcept { return clock_; }
  const AppConfig& config() const noexcept { return config_; }
  RunMode mode() const noexcept { return config_.mode; }
  bool has_video() const noexcept { return window_.is_open(); }
  bool deterministic() const noexcept { return config_.deterministic_time; }
  std::uint64_t frame_index() const noexcept { return frame_index_; }  // rendered/loop frames so far
  std::uint64_t sim_steps() const noexcept { return sim_steps_done_; }

  void request_quit() noexcept { quit_requested_ = true; }
  void request_screenshot(std::string path) { pending_screenshot_ = std::move(path); }  // end of this frame
  bool set_vsync(bool on) noexcept { return window_.set_vsync(on); }                    // false: driver refused
  bool vsync() const noexcept { return window_.vsync(); }
  void set_fullscreen(bool on) noexcept { window_.set_fullscreen(on); }  // see Window::set_fullscreen
  bool fullscreen() const noexcept { return window_.fullscreen(); }
  bool overlay_visible() const noexcept { return overlay_visible_; }
  void set_overlay_visible(bool on) noexcept { overlay_visible_ = on; }
  bool paused() const noexcept { return clock_.paused(); }
  void set_paused(bool on) noexcept { clock_.set_paused(on); }

  const std::string& asset_dir() const noexcept { return asset_dir_; }
  std::string asset_path(const std::string& relative) const;  // absolute paths pass through
  const Window& window() const noexcept { return window_; }
  // Valid for the Application's lifetime, also after shutdown() (a report is written after run()).
  RenderPathInfo render_path_info() const noexcept {
    return {renderer_.path(), config_.auto_render_path, gl_renderer_.c_str()};
  }
  // The GL viewport the last frame was drawn with: the drawable size of that frame, so it
  // follows a resize or a fullscreen switch from the next frame on.
  glm::ivec2 viewport() const noexcept { return viewport_; }
  SpriteRenderer& renderer() noexcept { return renderer_; }
  InputMapper& input() noexcept { return input_; }
  const Camera2D& camera() const noexcept { return camera_; }
  Camera2D& camera() noexcept { return camera_; }

 private:
  using Clock = std::chrono::steady_clock;
  Status init_video();
  int run_video(AppHooks& hooks);
  void poll_events();
  void apply_runtime_actions(const InputState& input, const RuntimeActions& actions);
  std::uint32_t steps_allowed(int steps) const noexcept;  // respects max_frames
  bool finished(const AppHooks& hooks) const;
  Status render_frame(AppHooks& hooks, bool last_frame);
  void present() noexcept;  // swaps the frame drawn last, if it was not shown yet
  void log_line(const std::string& message) const;

  AppConfig config_;
  std::string asset_dir_;
  FixedStepClock clock_;
  FrameStats stats_;
  InputMapper input_;
  Camera2D camera_;
  SpriteBatch batch_;
  Window window_;
  SpriteRenderer renderer_;
  ImGuiLayer imgui_;
  bool sdl_events_ = false;  // we initialised SDL events + game controllers
  bool initialised_ = false;
  bool overlay_visible_ = true;
  bool frame_to_present_ = false;  // drawn, not swapped yet: the next frame's CPU half runs first
  bool quit_requested_ = false;
  std::string pending_screenshot_;
  std::string gl_renderer_;  // glGetString(GL_RENDERER) at init, kept after shutdown
  std::uint64_t frame_index_ = 0;
  std::uint64_t sim_steps_done_ = 0;  // fixed_update calls so far (max_frames counts these)
  glm::ivec2 viewport_{0, 0};         // the last frame's glViewport
  InputState last_input_{};
};

// Where assets live unless told otherwise: $POOLSHOT_ASSET_DIR, else the compiled-in dir.
std::string default_asset_dir();

}  // namespace engine
