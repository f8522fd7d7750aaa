#pragma once
// The overlay's graphs, drawn with ImDrawList at the ImGui cursor (no ImPlot in 1.86):
// the frame-time window and the A/B comparison (two lines). Also the colours every overlay
// part shares, which the screenshot tests look for.
//
// The frame-time graph is two lanes over the same frames, each on its own scale, because
// software rendering can cost 100 times what the simulation does: rendering on top (sim +
// render stacked, or render alone, with the budget line and over-budget ticks), the
// simulation below it (its own millisecond axis, so 0.4 ms against 4 ms reads plainly next
// to 50 ms of rendering). Frames with pooling off are shaded across both lanes and labelled,
// so a switch shows as before / during / after on one graph; a storage or walk switch is a
// line through both lanes labelled with what it switched to ("packed", "slot-order list").
// Pool growths are ticks at the lanes' feet; hovering gives the frame's figures.
#include "metrics/compare_result.hpp"
#include "metrics/overlay_model.hpp"

#include <imgui.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace game {

struct ScreenRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // pixels, top-left origin
  bool empty() const noexcept { return x1 <= x0 || y1 <= y0; }
};

// Packed like IM_COL32 and engine::rgba (R in the low byte), without IM_COL32's C casts.
namespace overlay_colors {
inline constexpr std::uint32_t pack(std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t a = 255) {
  return r | (g << 8) | (b << 16) | (a << 24);
}
inline constexpr std::uint32_t title = pack(30, 64, 108);  // the panel's title bar
inline constexpr std::uint32_t graph_bg = pack(14, 16, 24, 235);
inline constexpr std::uint32_t sim_line = pack(80, 190, 255);     // simulation time
inline constexpr std::uint32_t total_line = pack(205, 150, 255);  // sim + render (stacked) or render (lines)
inline constexpr std::uint32_t budget = pack(255, 80, 80);
inline constexpr std::uint32_t pooled = pack(70, 215, 120);         // A/B: pooling on
inline constexpr std::uint32_t heap = pack(255, 140, 40);           // A/B: pooling off
inline constexpr std::uint32_t heap_span = pack(255, 140, 40, 56);  // tint behind frames with pooling off
inline constexpr std::uint32_t switch_line = pack(235, 235, 120);   // a storage or walk switch, and its label
std::uint32_t pool(PoolId id) noexcept;                             // each pool's own colour
ImVec4 vec(std::uint32_t packed) noexcept;                          // for ImGui::TextColored & co
}  // namespace overlay_colors

struct FrameGraphRects {
  ScreenRect box;                                  // the whole graph
  ScreenRect render_lane, sim_lane;                // each lane's plot area (inside the box, right of its axis)
  std::array<ScreenRect, 8> switch_label_rects{};  // the switch labels drawn (tests read them back)
  std::size_t switch_labels = 0;
};

// Draws the window's frame times into a box `height` pixels tall, the full content width.
FrameGraphRects draw_frame_graph(const FrameWindow& window, bool stacked, float height, std::vector<ImVec2>& scratch);
// Draws both runs' per-step simulation times (pooled green, heap orange) over result.frames.
ScreenRect draw_compare_graph(const CompareResult& result, float height, double budget_ms,
                              std::vector<ImVec2>& scratch);

}  // namespace game
