#pragma once
// Internal to the overlay's graphs (overlay_graph.cpp, overlay_frame_graph.cpp): the box a
// graph reserves in the ImGui layout, and a Plot, one lane of it with its own millisecond
// scale, grid and labels. A graph is one box holding one lane (compare) or several (frame
// time: rendering above, simulation below, each on its own scale).
#include "overlay/overlay_graph.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace game::graph_detail {

inline constexpr float kAxisWidth = 36;  // left of every lane: the millisecond labels
inline constexpr float kInset = 6;       // between the box's edge and a lane
inline constexpr std::uint32_t kGrid = overlay_colors::pack(255, 255, 255, 28);
inline constexpr std::uint32_t kLabel = overlay_colors::pack(200, 200, 210, 200);

constexpr std::uint32_t with_alpha(std::uint32_t c, std::uint32_t a) { return (c & 0x00ffffffu) | (a << 24); }

// One lane: the mapping from (slot, ms) to pixels.
struct Plot {
  float left = 0, top = 0, right = 0, bottom = 0;
  double y_max = 1;
  std::size_t slots = 2;  // x positions across the width (columns of frames)
  float x(std::size_t i) const {
    return slots > 1 ? left + (right - left) * static_cast<float>(i) / static_cast<float>(slots - 1) : left;
  }
  float y(double ms) const { return bottom - (bottom - top) * static_cast<float>(std::clamp(ms / y_max, 0.0, 1.0)); }
  ScreenRect rect() const { return {left, top, right, bottom}; }
};

// Reserves a box of the full content width (an invisible button, for hovering) and fills
// its background. Returns the box.
ScreenRect graph_box(const char* id, float height);

// A lane spanning [top, bottom] of `box`, scaled to y_max (at least 0.001 ms), with about
// `grid_lines` labelled horizontal lines at a round step.
Plot lane(const ScreenRect& box, float top, float bottom, double y_max, std::size_t slots, int grid_lines);

// The dashed budget line with its label at the right end (nothing if off the top).
void budget_line(ImDrawList* dl, const Plot& plot, double budget_ms);

// `text` at `at` over a small background patch, so it reads on top of a trace.
void tag_text(ImDrawList* dl, ImVec2 at, std::uint32_t colour, const char* text);

}  // namespace game::graph_detail
