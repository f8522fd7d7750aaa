#pragma once
// game::OverlayPanel: the Dear ImGui debug panel (F1). It draws an OverlayModel and returns
// what the user asked for as OverlayCommands; GameApp carries them out, settings through
// Simulation::settings() (applied at the start of the next step) and the rest through the
// engine::Application API. The panel keeps only view state (window length, graph style,
// edits not yet applied), never game state, so what it shows is what the report says.
//
// Layout: one opaque column docked at the right edge, full height, that neither moves nor
// resizes; GameApp draws the playfield into the rest of the window, so no object is ever
// under the panel. At the top, always in view: the header line (the pooling switch), warnings
// (a pool at its max capacity refusing spawns) and the frame-time graph, so a switch flipped
// anywhere below shows on the graph as it happens. Under it, one scrolling region holds the
// collapsing sections: Pools, Memory, Frame time (the figures), Memory map, Controls, Advisor
// and Compare, each open or folded on its own. Every table cell is sized for the widest text its
// column holds and checked as it is drawn (clipped_cells()), at any window from 900x600 up.
#include "metrics/compare_result.hpp"
#include "overlay/overlay_graph.hpp"
#include "overlay/overlay_memory_map.hpp"
#include "overlay/overlay_widgets.hpp"
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

struct OverlayRuntime {        // what the panel shows of the runtime
  bool paused = false;         // the game's pause (P, the pause menu, the Pause button)
  bool reading_panel = false;  // the game waits while the mouse is on the panel and nothing is held
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
  static constexpr float kWidth = 480;     // from 800 to 1920 pixels wide: every column fits in it
  static constexpr float kMaxWidth = 640;  // a quarter of 2560: wider windows give the graph more frames
  // The docked column's width in a window `display_width` wide (narrow windows keep 40 %).
  static float docked_width(float display_width) noexcept {
    if (display_width * 0.6f < kWidth) return display_width * 0.6f;
    const float quarter = display_width * 0.25f;
    return quarter < kWidth ? kWidth : quarter > kMaxWidth ? kMaxWidth : quarter;
  }

  OverlayCommands draw(const OverlayFrame& frame);  // between ImGui::NewFrame and Render

  const OverlayViewOptions& view() const noexcept { return view_; }  // build the model with these
  void set_message(std::string message) { message_ = std::move(message); }
  ScreenRect graph_rect() const noexcept { return graph_.box; }           // last frame-time graph (tests)
  const FrameGraphRects& graph_rects() const noexcept { return graph_; }  // with its lanes (tests)
  ScreenRect panel_rect() const noexcept { return panel_rect_; }
  // How far the sections overflowed their scrolling region's height last frame (0: no scrolling needed).
  float overflow() const noexcept { return scroll_max_y_; }
  // How far the sections' content ran past the column's width (0: nothing runs off the edge).
  float overflow_x() const noexcept { return scroll_max_x_; }
  // Table cells drawn last frame whose text or widget was wider than their column (0: none),
  // and the first of them: a test hook (overlay_widgets.hpp, CellFit).
  int clipped_cells() const noexcept { return cells_.clipped(); }
  const char* first_clipped_cell() const noexcept { return cells_.first(); }
  // Where a widget was drawn last, by label: the section headers, "pooling", "Pause",
  // "Reset statistics", "volume", "Apply suggestions", "Run A/B", "Export CSV". Empty if not
  // drawn. Tests click there.
  ScreenRect item_rect(const char* label) const noexcept;
  // Opens the Memory map and folds the Frame time figures above it, so the map is in view
  // (before the first draw: tests, screenshots).
  void open_memory_map() noexcept { open_memory_map_ = true; }
  // Opens every section, so each of its tables is drawn (before the first draw: tests).
  void open_every_section() noexcept { open_every_section_ = true; }
  const MemoryMapRects& memory_map_rects() const noexcept { return memory_map_rects_; }

 private:
  void draw_warnings(const OverlayModel& model);
  void draw_pools(const OverlayModel& model);
  void draw_growth_log(const OverlayModel& model);
  void draw_frame_time(const OverlayModel& model, const OverlayRuntime::Render& render, OverlayCommands& out);
  void draw_memory(const OverlayModel& model);
  void draw_graph_legend();
  void draw_controls(const OverlayFrame& frame, OverlayCommands& out);
  void draw_advisor(const OverlayFrame& frame, OverlayCommands& out);
  void draw_compare(const OverlayFrame& frame, OverlayCommands& out);
  void check_policy_request(const OverlayModel& model);
  void remember(const char* label);  // the last item's rect under `label` (a string literal)

  void draw_sections(const OverlayFrame& frame, OverlayCommands& out);  // the scrolling region

  bool open_memory_map_ = false;     // asked for before the first draw
  bool open_every_section_ = false;  // the same
  OverlayViewOptions view_;
  bool stacked_ = true;
  char csv_dir_[256] = {};
  std::vector<float> plot_scratch_;                                   // allocations histogram
  std::vector<ImVec2> points_scratch_;                                // graph polylines
  std::optional<std::array<PoolConfig, kPoolCount>> pool_edits_;      // Controls, not yet applied
  std::optional<std::array<PoolConfig, kPoolCount>> policy_request_;  // applied; checked next step
  std::uint64_t policy_request_step_ = 0;
  int compare_frames_ = 600;
  bool compare_scroll_pending_ = false;  // a run started here: scroll its result into view
  std::string message_;
  FrameGraphRects graph_;
  ScreenRect panel_rect_;
  float scroll_max_y_ = 0, scroll_max_x_ = 0;
  overlay_widgets::CellFit cells_;
  std::array<std::pair<const char*, ScreenRect>, 16> items_{};
  MemoryMapRects memory_map_rects_{};
};

}  // namespace game
