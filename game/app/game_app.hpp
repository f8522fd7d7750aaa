#pragma once
// game::GameApp: the shooter as engine::Application sees it (AppHooks). Maps the runtime's
// device state onto game::Input and the runtime's actions through the game's own bindings
// (input_bindings.hpp), places the frame's camera before the steps (frame_camera.hpp), steps
// the Simulation, hands its sprites to the batch, logs per-frame timings and allocations for
// the report, records pool growths and rates for the debug overlay, and draws a small HUD
// (score, lives, wave), the title / pause / game-over screens (GameFlow, flow_screens.cpp)
// and the overlay (F1) with ImGui.
// The overlay docks at the right edge, full height; the playfield is the rest of the window.
// The world is scaled into the playfield below the score line, the sprites are clipped to it
// and its edge is drawn, so nothing of the game hides under the panel or the score line, and
// the line where bullets leave the world is one the player sees.
// With a ScriptPlayer the script replaces the device input for the simulation (the runtime's
// own keys, F1, pause, step, quit, still work) and applies its settings changes.
#include "app/best_score.hpp"
#include "app/compare_run.hpp"
#include "app/game_audio.hpp"
#include "metrics/frame_log.hpp"
#include "app/game_flow.hpp"
#include "metrics/memory_snapshot.hpp"
#include "metrics/overlay_model.hpp"
#include "overlay/overlay_panel.hpp"
#include "metrics/overlay_rates.hpp"
#include "metrics/phase_recorder.hpp"
#include "app/step_loop.hpp"
#include "sim/script.hpp"
#include "sim/simulation.hpp"

#include <engine/application.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <utility>

namespace game {

class GameApp : public engine::AppHooks {
 public:
  // skip_title: start playing (tests, scripted and headless-like runs). best: where the best
  // score lives; nullptr: nothing is read or saved (the best starts at 0).
  GameApp(Simulation& sim, engine::Application& app, std::uint64_t warmup_frames, ScriptPlayer* script = nullptr,
          bool skip_title = true, BestScoreFile* best = nullptr);
  ~GameApp() override;

  engine::RuntimeActions runtime_actions(const engine::InputState& input) override;  // the game's bindings
  void place_camera(engine::Camera2D& camera, glm::ivec2 window_size) override;      // playfield + camera
  void fixed_update(const engine::InputState& input, double dt) override;
  void render(engine::RenderContext& context) override;
  void hud() override;    // score line and the flow's screens, also while the overlay is hidden
  void imgui() override;  // the overlay panel

  // The frames recorded so far (timings from engine::FrameStats, allocations counted here).
  FrameSummary summary() const { return log_.summary(); }
  // Logs the last rendered frame, which no later render() will (call once, after the run).
  void finish();
  const PhaseRecorder& phases() const noexcept { return phases_; }
  // What the overlay shows now (built fresh, also while it is hidden): for the report.
  OverlayModel overlay_model() const;
  const OverlayPanel& panel() const noexcept { return panel_; }
  OverlayPanel& panel() noexcept { return panel_; }
  const MemorySnapshot& memory() const noexcept { return memory_; }
  // Starts the overlay's A/B comparison as its button does (tests, scripted screenshots).
  void start_compare(std::uint64_t frames);
  const CompareRun* compare() const noexcept { return compare_.get(); }
  GameAudio& audio() noexcept { return audio_; }  // main opens its device (not headless)
  const GameFlow& flow() const noexcept { return flow_; }
  // True while the game is paused because the player reads the panel: the mouse is on it
  // (ImGui has it), the flow is playing and no fire or movement is held (nor autofire on).
  // Fire or movement held lets the game run, so a click on the panel shows its effect at once.
  bool reading_panel() const noexcept { return reading_panel_; }
  // The window rectangle the world is drawn into (the whole window, less the docked panel).
  ScreenRect playfield() const noexcept { return playfield_; }
  // Where the world is drawn (window pixels): below the score line, inside the playfield, as
  // large as it fits; the sprites are clipped to it and its edge is drawn just outside it.
  ScreenRect world_rect() const noexcept { return world_rect_; }
  static constexpr float kEdgeInset = 4;      // room for the edge between the world and the rest
  static constexpr float kHudBandGuess = 64;  // the score line's height before it is first drawn
  static constexpr std::uint32_t kWorldEdgeColour = overlay_colors::pack(96, 128, 176);  // steel blue
  // Where the score line (the HUD) was drawn last: inside the playfield, never under the panel.
  ScreenRect hud_rect() const noexcept { return hud_rect_; }
  std::int64_t hud_score() const noexcept { return hud_score_; }  // the score the HUD printed last frame
  // Where the title / pause / game-over window's buttons were drawn last (tests click there):
  // "Play", "Resume", "Restart", "Overlay", "Quit", "Play again". Empty if not drawn.
  ScreenRect button_rect(const char* label) const noexcept;

 private:
  OverlayViewOptions view_options() const;
  bool reads_panel(const engine::InputState& input) const;
  void sync_clock();           // the clock pauses for the flow's pause and while the panel is read
  void log_committed_frame();  // the frame FrameStats committed last, into log_ and phases_
  void carry_out(const OverlayCommands& commands);
  void carry_out(const FlowEffects& effects);
  void draw_score_line();
  void draw_title();
  void draw_pause_menu();
  void draw_game_over();
  bool flow_button(const char* label, bool highlighted, float width, const char* remember_as = nullptr);

  Simulation& sim_;
  engine::Application& app_;
  ScriptPlayer* script_;
  FrameLog log_;
  PhaseRecorder phases_;
  StepLoop steps_;                      // the one step loop (step_loop.hpp): times each window step, tells phases_
  std::uint64_t frame_first_step_ = 1;  // the steps of the frame rendered last, for its render time
  std::uint64_t frame_last_step_ = 0;   // (first > last: that frame ran no step)
  PoolRateMeter rates_;
  OverlayModel model_;
  OverlayPanel panel_;
  std::unique_ptr<CompareRun> compare_;
  GameAudio audio_;                    // silent until audio().open_device()
  MemorySnapshot memory_;              // the "Memory map" section, refreshed every MemorySnapshot::kRefreshSteps steps
  std::uint64_t frame_allocs_ = 0;     // operator new calls in this frame's steps
  std::uint8_t frame_tag_ = 0;         // kFrameTag* bits of this frame's steps, or-ed (frame_log.hpp)
  std::uint8_t logged_frame_tag_ = 0;  // the same, for the frame FrameStats committed last
  FrameSwitch frame_switch_;           // what this frame's steps switched (pooling, storage, walk)
  FrameSwitch logged_frame_switch_;    // the same, for the frame FrameStats committed last
  std::uint64_t last_logged_frame_ = ~std::uint64_t{0};
  std::size_t growth_records_seen_ = 0;
  BestScoreFile* best_file_;
  GameFlow flow_;
  bool restart_pending_ = false;  // the flow asked for a fresh world: the next step restarts
  bool reading_panel_ = false;    // reading_panel(), decided at the top of each frame
  ScreenRect playfield_;          // placed with the camera at the top of each frame
  ScreenRect hud_rect_;           // the score line's window, last frame
  std::int64_t hud_score_ = -1;   // the number it printed (-1: not drawn yet)
  ScreenRect world_rect_;         // the world in the window, placed with the camera
  std::array<std::pair<const char*, ScreenRect>, 8> buttons_{};
};

}  // namespace game
