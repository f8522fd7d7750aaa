#pragma once
// game::OverlayPanel: the Dear ImGui debug panel (F1). It draws an OverlayModel and returns
// what the user asked for as OverlayCommands; GameApp carries them out, settings through
// Simulation::settings() (applied at the start of the next step) and the rest through the
// engine::Application API. The panel keeps only view state (window length, graph style,
// edits not yet applied), never game state, so what it shows is what the report says.
//
// Layout: one opaque column docked at the right edge, full height, that neither moves nor
// resizes; GameApp draws the playfield into the rest of the window, so no object is ever
// under the panel. Collapsing headers Pools and Memory, then the tall sections Frame time,
// Controls, Advisor and Compare, one open at a time (opening one folds the other), so the
// column fits 1280x720 without scrolling (taller content would scroll inside the column).
// Warnings (a pool at its max capacity refusing spawns) sit above the headers, always visible.
#include "metrics/compare_result.hpp"
#include "overlay/overlay_graph.hpp"
#include "overlay/overlay_memory_map.hpp"
#include "metrics/overlay_model.hpp"
#include "sim/settings.hpp"

#include <imgui.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace game {

struct OverlayCommands {
  std::optional<Settings> settings;  // the requested settings changed
  bool toggle_pause = false;
  bool single_step = false;  // one step while paused
  std::optional<bool> vsync;
  std::optional<float> volume;  // master volume 0..1
  std::optional<bool> muted;
  bool reset_stats = false;    // frame-time window, events, rates
  bool export_csv = false;     // frame window + growth log to csv_dir
  bool start_compare = false;  // A/B run of compare_frames steps each
  bool cancel_compare = false;
  bool export_compare = false;  // the finished A/B run as CSV + PNG to csv_dir
  std::uint64_t compare_frames = 600;
  std::string csv_dir;  // "" = the working directory
};

struct OverlayRuntime {  // what the panel shows of the runtime
  bool paused = false;
  bool vsync = false;
  bool deterministic = false;  // one step per frame (scripted runs, screenshots)
  struct Sound {
    bool device = false;  // false: no audio device, the game runs silent
    float volume = 0.8f;  // 0..1
    bool muted = false;
  } sound;
  struct Render {
    const char* path = "";         // the sprite path drawing: "fast" or "instanced"
    bool chosen_by_auto = false;   // --render-path auto picked it from gl_renderer
    const char* gl_renderer = "";  // glGetString(GL_RENDERER)
    bool software_gl = false;      // gl_renderer is a software rasteriser (llvmpipe ...)
  } render;
};

// The A/B run as the panel sees it: its record so far and how far it got (the app drives it).
struct CompareStatus {
  const CompareResult* result = nullptr;  // null: no comparison yet
  double progress = 0;                    // 0..1
};

struct OverlayFrame {
  const OverlayModel& model;
  const Settings& requested;  // Simulation::settings(): what the next step applies
  OverlayRuntime runtime;
  CompareStatus compare;                   // running or finished A/B run, if any
  const MemorySnapshot* memory = nullptr;  // set: the "Memory map" section is drawn from it
};

class OverlayPanel {
 public:
  static constexpr float kWidth = 480;
  // The docked column's width in a window `display_width` wide (narrow windows keep 40 %).
  static float docked_width(float display_width) noexcept {
    return display_width * 0.6f < kWidth ? display_width * 0.6f : kWidth;
  }

  OverlayCommands draw(const OverlayFrame& frame);  // between ImGui::NewFrame and Render

  const OverlayViewOptions& view() const noexcept { return view_; }  // build the model with these
  void set_message(std::string message) { message_ = std::move(message); }
  ScreenRect graph_rect() const noexcept { return graph_.box; }           // last frame-time graph (tests)
  const FrameGraphRects& graph_rects() const noexcept { return graph_; }  // with its lanes (tests)
  ScreenRect panel_rect() const noexcept { return panel_rect_; }
  // How far the column's content overflowed its height last frame (0: no scrolling needed).
  float overflow() const noexcept { return scroll_max_y_; }
  // Where a widget was drawn last, by label: the section headers, "pooling", "Pause",
  // "Reset statistics", "volume", "Apply suggestions", "Run A/B". Empty if not drawn. Tests click there.
  ScreenRect item_rect(const char* label) const noexcept;
  void open_memory_map() noexcept {
    open_tall_ = TallSection::memory_map;
  }  // before the first draw (tests, screenshots)
  const MemoryMapRects& memory_map_rects() const noexcept { return memory_map_rects_; }

 private:
  void draw_warnings(const OverlayModel& model);
  void draw_pools(const OverlayModel& model);
  void draw_growth_log(const OverlayModel& model);
  void draw_frame_time(const OverlayModel& model, const OverlayRuntime::Render& render, OverlayCommands& out);
  void draw_memory(const OverlayModel& model);
  void draw_controls(const OverlayFrame& frame, OverlayCommands& out);
  void draw_advisor(const OverlayFrame& frame, OverlayCommands& out);
  void draw_compare(const OverlayFrame& frame, OverlayCommands& out);
  void check_policy_request(const OverlayModel& model);
  void remember(const char* label);  // the last item's rect under `label` (a string literal)

  enum class TallSection : std::uint8_t { none, frame_time, memory_map, controls, advisor, compare };
  TallSection open_tall_ = TallSection::frame_time;  // the one tall section shown
  OverlayViewOptions view_;
  bool stacked_ = true;
  char csv_dir_[256] = {};
  std::vector<float> plot_scratch_;                                   // allocations histogram
  std::vector<ImVec2> points_scratch_;                                // graph polylines
  std::optional<std::array<PoolConfig, kPoolCount>> pool_edits_;      // Controls, not yet applied
  std::optional<std::array<PoolConfig, kPoolCount>> policy_request_;  // applied; checked next step
  std::uint64_t policy_request_step_ = 0;
  int compare_frames_ = 600;
  std::string message_;
  FrameGraphRects graph_;
  ScreenRect panel_rect_;
  float scroll_max_y_ = 0;
  std::array<std::pair<const char*, ScreenRect>, 16> items_{};
  MemoryMapRects memory_map_rects_{};
};

}  // namespace game
