// The frame-time graph (overlay_graph.hpp): a rendering lane above a simulation lane, each
// on its own scale, with the frames that ran with pooling off shaded and labelled behind both,
// storage and walk switches as labelled lines, pool growths as ticks at the lanes' feet.
#include "overlay/overlay_graph.hpp"

#include "overlay/overlay_graph_plot.hpp"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace game {

namespace {

using namespace overlay_colors;
using namespace graph_detail;

constexpr float kLaneGap = 8;           // between the rendering and the simulation lane
constexpr float kSimLaneShare = 0.45f;  // of the height the lanes share
constexpr float kGrowthTick = 8;        // a growth's tick, up from a lane's foot

// Many frames per pixel column: each column shows its worst frame, so a spike never hides
// between two drawn points; a column with any heap frame is shaded.
struct Column {
  float sim = 0, render = 0, total = 0;
  bool over = false, heap = false;
  std::uint8_t grew = 0;
  std::size_t first = 0;  // row index the column starts at
};

Column column_of(const FrameWindow& w, std::size_t c, std::size_t columns) {
  const std::size_t n = w.rows.size();
  const std::size_t a = c * n / columns, b = std::max(a + 1, (c + 1) * n / columns);
  Column col;
  col.first = a;
  for (std::size_t i = a; i < b && i < n; ++i) {
    const FrameRow& r = w.rows[i];
    col.sim = std::max(col.sim, r.sim_ms);
    col.render = std::max(col.render, r.render_ms);
    col.total = std::max(col.total, r.total_ms());
    col.over = col.over || r.over_budget;
    col.heap = col.heap || r.heap;
    col.grew = static_cast<std::uint8_t>(col.grew | r.grew);
  }
  return col;
}

// A lane's scale follows the window's max, but a lone hitch (a debugger, a page-in, the
// switch that moves every object out of its pool) may not flatten everything else: past
// 1.5 x p99 it runs off the top, clipped, and the table below gives its height.
double lane_top(const Percentiles& p, double floor_ms) {
  return std::max(floor_ms, std::min(p.max, p.p99 * 1.5) * 1.08);
}

// Every run of heap columns: a tint behind both lanes (first pass), or its label on top of
// the traces where it fits (last pass), never left of label_from_x (the lane's own label).
void heap_spans(ImDrawList* dl, const FrameWindow& w, const ScreenRect& box, const Plot& plot, std::size_t columns,
                bool labels, float label_from_x) {
  const float half = (plot.right - plot.left) / static_cast<float>(columns - 1) / 2;
  for (std::size_t c = 0; c < columns;) {
    if (!column_of(w, c, columns).heap) {
      ++c;
      continue;
    }
    std::size_t end = c;  // last heap column of the run
    while (end + 1 < columns && column_of(w, end + 1, columns).heap) ++end;
    const float x0 = std::max(plot.left, plot.x(c) - half), x1 = std::min(plot.right, plot.x(end) + half);
    c = end + 1;
    if (!labels) {
      dl->AddRectFilled(ImVec2(x0, box.y0 + 2), ImVec2(x1, box.y1 - 2), heap_span);
      dl->AddLine(ImVec2(x0, box.y0 + 2), ImVec2(x0, box.y1 - 2), with_alpha(heap, 150));
      dl->AddLine(ImVec2(x1, box.y0 + 2), ImVec2(x1, box.y1 - 2), with_alpha(heap, 150));
      continue;
    }
    const float text_x = std::max(x0 + 4, label_from_x);
    for (const char* label : {"heap: pooling off", "heap"}) {
      if (text_x + ImGui::CalcTextSize(label).x + 4 > x1) continue;
      tag_text(dl, ImVec2(text_x, plot.top), heap, label);
      break;
    }
  }
}

// Growths are ticks at the foot of each lane, in the pool's colour (a full-height line is a
// switch); over-budget frames a red notch at the render lane's top.
void growth_and_budget_marks(ImDrawList* dl, const FrameWindow& w, const Plot& render, const Plot& sim,
                             std::size_t columns) {
  for (std::size_t c = 0; c < columns; ++c) {
    const Column col = column_of(w, c, columns);
    const float x = render.x(c);
    if (col.over) dl->AddRectFilled(ImVec2(x - 1, render.top - 4), ImVec2(x + 1, render.top), budget);
    for (std::size_t i = 0; i < kPoolCount; ++i) {
      if ((col.grew & (1u << i)) == 0) continue;
      const std::uint32_t colour = pool(static_cast<PoolId>(i));
      for (const float foot : {render.bottom, sim.bottom}) {
        dl->AddLine(ImVec2(x, foot - kGrowthTick), ImVec2(x, foot), colour, 1.0f);
        dl->AddTriangleFilled(ImVec2(x - 3, foot), ImVec2(x + 3, foot), ImVec2(x, foot - 5), colour);
      }
    }
  }
}

// The column a frame falls in (the window's rows are consecutive frames).
std::size_t column_of_frame(const FrameWindow& w, std::uint64_t frame, std::size_t columns) {
  const auto row = static_cast<std::size_t>(frame - w.rows.front().frame);
  return std::min(columns - 1, row * columns / w.rows.size());
}

// Storage and walk switches: a line through both lanes at the frame the switch took effect,
// behind the traces (first pass), and its label (last pass) in the first of three rows under
// the render lane's top where it does not run into the label left of it. Pooling switches are
// the heap span's edges, drawn and labelled by heap_spans().
void switch_lines(ImDrawList* dl, const FrameWindow& w, const ScreenRect& box, const Plot& render, std::size_t columns,
                  bool labels, float label_from_x, FrameGraphRects* rects) {
  std::array<float, 3> row_end;  // right end of the last label in each row
  row_end.fill(label_from_x);
  const float h = ImGui::GetTextLineHeight();
  for (const SwitchMark& m : w.switches) {
    if (m.kind == SwitchKind::pooling) continue;
    const float x = render.x(column_of_frame(w, m.frame, columns));
    if (!labels) {
      dl->AddLine(ImVec2(x, box.y0 + 2), ImVec2(x, box.y1 - 2), switch_line, 1.0f);
      continue;
    }
    const float width = ImGui::CalcTextSize(m.label).x;
    for (std::size_t r = 0; r < row_end.size(); ++r) {
      if (render.top + h * static_cast<float>(r + 2) > render.bottom) break;  // the rows the lane has room for
      const float text_x = std::min(x + 3, render.right - width - 2);         // at the line, inside the lane
      if (text_x < row_end[r] + 4 || text_x < render.left) continue;
      const ImVec2 at(text_x, render.top + h * static_cast<float>(r + 1));
      tag_text(dl, at, switch_line, m.label);
      row_end[r] = text_x + width;
      if (rects != nullptr && rects->switch_labels < rects->switch_label_rects.size())
        rects->switch_label_rects[rects->switch_labels++] = {at.x, at.y, at.x + width, at.y + h};
      break;
    }
  }
}

// Filled areas under a series (and, for the stacked render lane, the sim share below it).
void area(ImDrawList* dl, const FrameWindow& w, const Plot& plot, std::size_t columns, float Column::*low,
          float Column::*high, std::uint32_t colour) {
  // Adjacent quads share their edges: no feathered (anti-aliased) rims, which would overlap at
  // every seam and double the vertices the panel sends a software rasteriser.
  const ImDrawListFlags flags = dl->Flags;
  dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;
  for (std::size_t c = 1; c < columns; ++c) {
    const Column a = column_of(w, c - 1, columns), b = column_of(w, c, columns);
    const float xa = plot.x(c - 1), xb = plot.x(c);
    const auto y = [&plot](const Column& col, float Column::*m) {
      return m ? plot.y(static_cast<double>(col.*m)) : plot.bottom;  // no member: the lane's floor
    };
    dl->AddQuadFilled(ImVec2(xa, y(a, low)), ImVec2(xa, y(a, high)), ImVec2(xb, y(b, high)), ImVec2(xb, y(b, low)),
                      colour);
  }
  dl->Flags = flags;
}

void line(ImDrawList* dl, const FrameWindow& w, const Plot& plot, std::size_t columns, float Column::*series,
          std::uint32_t colour, std::vector<ImVec2>& pts) {
  pts.clear();
  for (std::size_t c = 0; c < columns; ++c)
    pts.emplace_back(plot.x(c), plot.y(static_cast<double>(column_of(w, c, columns).*series)));
  dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), colour, 0, 2.0f);
}

void frame_tooltip(const FrameWindow& w, const Plot& render, const Plot& sim, std::size_t columns) {
  const float mx = ImGui::GetIO().MousePos.x;
  const auto c =
      static_cast<std::size_t>(std::clamp(std::lround((mx - render.left) / std::max(1.0f, render.right - render.left) *
                                                      static_cast<float>(columns - 1)),
                                          0L, static_cast<long>(columns - 1)));
  const FrameRow& r = w.rows[column_of(w, c, columns).first];
  ImGui::GetWindowDrawList()->AddLine(ImVec2(render.x(c), render.top), ImVec2(render.x(c), sim.bottom),
                                      pack(255, 255, 255, 90));
  ImGui::BeginTooltip();
  ImGui::Text("frame %" PRIu64 "%s", r.frame, r.heap ? "   pooling off: one new per object" : "");
  ImGui::Text("sim %.3f ms  render %.2f ms  total %.2f ms", static_cast<double>(r.sim_ms),
              static_cast<double>(r.render_ms), static_cast<double>(r.total_ms()));
  ImGui::Text("heap allocations %" PRIu64 "   draw calls %u   sprites %u", r.allocations, r.draw_calls, r.sprites);
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    if ((r.grew & (1u << i)) != 0)
      ImGui::TextColored(vec(pool(static_cast<PoolId>(i))), "%s grew", pool_name(static_cast<PoolId>(i)));
  }
  if (r.over_budget) ImGui::TextColored(vec(budget), "over the %.1f ms budget", w.budget_ms);
  for (const SwitchMark& m : w.switches) {
    if (m.frame == r.frame) ImGui::TextColored(vec(switch_line), "switched to %s", m.label);
  }
  ImGui::EndTooltip();
}

}  // namespace

FrameGraphRects draw_frame_graph(const FrameWindow& w, bool stacked, float height, std::vector<ImVec2>& pts) {
  const float avail = std::max(60.0f, ImGui::GetContentRegionAvail().x) - kAxisWidth;
  const std::size_t columns = std::min<std::size_t>(w.rows.size(), static_cast<std::size_t>(std::max(2.0f, avail)));
  FrameGraphRects rects;
  rects.box = graph_box("##frame_graph", height);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ScreenRect& box = rects.box;
  const float lanes = box.y1 - box.y0 - 2 * kInset - kLaneGap;
  const float split = box.y0 + kInset + lanes * (1 - kSimLaneShare);
  if (columns < 2) {
    dl->AddText(ImVec2(box.x0 + kAxisWidth + 8, box.y0 + 8), kLabel, "collecting frames...");
    return rects;
  }
  // Back to front: the heap tint, each lane's grid, marks, areas, lines, labels.
  const char* render_label = stacked ? "render+sim" : "render";
  const Plot columns_only{box.x0 + kAxisWidth, box.y0 + kInset, box.x1 - kInset, split, 1, columns};
  heap_spans(dl, w, box, columns_only, columns, false, 0);
  const double render_top = lane_top(stacked ? w.total : w.render, w.budget_ms * 1.25);
  const Plot render = lane(box, box.y0 + kInset, split, render_top, columns, 3);
  const Plot sim = lane(box, split + kLaneGap, box.y1 - kInset, lane_top(w.sim, 0.1), columns, 3);
  rects.render_lane = render.rect();
  rects.sim_lane = sim.rect();
  dl->AddLine(ImVec2(box.x0 + 3, split + kLaneGap / 2), ImVec2(box.x1 - 3, split + kLaneGap / 2),
              with_alpha(kLabel, 90));
  switch_lines(dl, w, box, render, columns, false, 0, nullptr);
  growth_and_budget_marks(dl, w, render, sim, columns);

  if (stacked) {  // rendering lane: the simulation's share at the bottom, rendering on top of it
    area(dl, w, render, columns, nullptr, &Column::sim, with_alpha(sim_line, 70));
    area(dl, w, render, columns, &Column::sim, &Column::total, with_alpha(total_line, 55));
    line(dl, w, render, columns, &Column::total, total_line, pts);
  } else {
    line(dl, w, render, columns, &Column::render, total_line, pts);
  }
  area(dl, w, sim, columns, nullptr, &Column::sim, with_alpha(sim_line, 60));
  line(dl, w, sim, columns, &Column::sim, sim_line, pts);

  budget_line(dl, render, w.budget_ms);
  tag_text(dl, ImVec2(render.left + 4, render.top), total_line, render_label);
  tag_text(dl, ImVec2(sim.left + 4, sim.top), sim_line, "sim");
  heap_spans(dl, w, box, render, columns, true, render.left + ImGui::CalcTextSize(render_label).x + 12);
  switch_lines(dl, w, box, render, columns, true, render.left, &rects);
  if (hovered) frame_tooltip(w, render, sim, columns);
  return rects;
}

}  // namespace game
