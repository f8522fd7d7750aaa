#include "overlay_graph.hpp"

#include "axis_step.hpp"
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace game {

namespace overlay_colors {

std::uint32_t pool(PoolId id) noexcept {
  switch (id) {
    case PoolId::bullets: return pack(120, 255, 230);
    case PoolId::enemy_bullets: return pack(255, 110, 170);
    case PoolId::particles: return pack(255, 190, 70);
    case PoolId::enemies: return pack(175, 140, 255);
  }
  return pack(255, 255, 255);
}

ImVec4 vec(std::uint32_t c) noexcept {
  const auto channel = [c](int shift) { return static_cast<float>((c >> shift) & 0xffu) / 255.0f; };
  return ImVec4(channel(0), channel(8), channel(16), channel(24));
}

}  // namespace overlay_colors

namespace {

using namespace overlay_colors;

constexpr std::uint32_t with_alpha(std::uint32_t c, std::uint32_t a) { return (c & 0x00ffffffu) | (a << 24); }
constexpr std::uint32_t kGrid = pack(255, 255, 255, 28);
constexpr std::uint32_t kLabel = pack(200, 200, 210, 200);

// The plot area inside a graph box, and the mapping from (index, ms) to pixels.
struct Plot {
  float left, top, right, bottom;
  double y_max;
  std::size_t slots;  // x positions across the width (frames, or frames of a run)
  float x(std::size_t i) const {
    return slots > 1 ? left + (right - left) * static_cast<float>(i) / static_cast<float>(slots - 1) : left;
  }
  float y(double ms) const {
    return bottom - (bottom - top) * static_cast<float>(std::clamp(ms / y_max, 0.0, 1.0));
  }
};

Plot begin_box(const char* id, float height, double y_max, std::size_t slots, ScreenRect& box) {
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float width = std::max(60.0f, ImGui::GetContentRegionAvail().x);
  ImGui::InvisibleButton(id, ImVec2(width, height));
  box = {p0.x, p0.y, p0.x + width, p0.y + height};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), graph_bg, 3.0f);
  Plot plot{box.x0 + 30, box.y0 + 6, box.x1 - 6, box.y1 - 6, std::max(y_max, 0.01), slots};
  // Horizontal grid with millisecond labels at a round step, about four lines.
  const double step = nice_step(plot.y_max / 4);
  char label[16];
  for (double ms = 0; ms <= plot.y_max; ms += step) {
    const float y = plot.y(ms);
    dl->AddLine(ImVec2(plot.left, y), ImVec2(plot.right, y), kGrid);
    std::snprintf(label, sizeof label, step >= 1 ? "%.0f" : step >= 0.1 ? "%.1f" : step >= 0.01 ? "%.2f" : "%.3f", ms);
    dl->AddText(ImVec2(box.x0 + 3, y - 7), kLabel, label);
  }
  return plot;
}

void budget_line(ImDrawList* dl, const Plot& plot, double budget_ms) {
  if (budget_ms >= plot.y_max) return;
  const float y = plot.y(budget_ms);
  for (float x = plot.left; x < plot.right; x += 8) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 4, plot.right), y), budget, 1.5f);
  char label[24];
  std::snprintf(label, sizeof label, "%.1f ms", budget_ms);
  const ImVec2 size = ImGui::CalcTextSize(label);
  const ImVec2 at(plot.right - size.x - 2, y - size.y - 2);
  dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + size.x + 2, at.y + size.y), graph_bg, 2.0f);
  dl->AddText(at, budget, label);
}

// Many frames per pixel column: each column shows its worst frame, so a spike never hides
// between two drawn points.
struct Column {
  float sim = 0, total = 0;
  bool over = false;
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
    col.total = std::max(col.total, r.total_ms());
    col.over = col.over || r.over_budget;
    col.grew = static_cast<std::uint8_t>(col.grew | r.grew);
  }
  return col;
}

void frame_tooltip(const FrameWindow& w, const Plot& plot, std::size_t columns) {
  const float mx = ImGui::GetIO().MousePos.x;
  const auto c = static_cast<std::size_t>(std::clamp(
      std::lround((mx - plot.left) / std::max(1.0f, plot.right - plot.left) * static_cast<float>(columns - 1)), 0L,
      static_cast<long>(columns - 1)));
  const FrameRow& r = w.rows[column_of(w, c, columns).first];
  ImGui::GetWindowDrawList()->AddLine(ImVec2(plot.x(c), plot.top), ImVec2(plot.x(c), plot.bottom), pack(255, 255, 255, 90));
  ImGui::BeginTooltip();
  ImGui::Text("frame %" PRIu64, r.frame);
  ImGui::Text("sim %.2f ms  render %.2f ms  total %.2f ms", static_cast<double>(r.sim_ms),
              static_cast<double>(r.render_ms), static_cast<double>(r.total_ms()));
  ImGui::Text("heap allocations %" PRIu64 "   draw calls %u   sprites %u", r.allocations, r.draw_calls, r.sprites);
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    if ((r.grew & (1u << i)) != 0) ImGui::TextColored(vec(pool(static_cast<PoolId>(i))), "%s grew", pool_name(static_cast<PoolId>(i)));
  }
  if (r.over_budget) ImGui::TextColored(vec(budget), "over the %.1f ms budget", w.budget_ms);
  ImGui::EndTooltip();
}

}  // namespace

ScreenRect draw_frame_graph(const FrameWindow& w, bool stacked, float height, std::vector<ImVec2>& pts) {
  // The scale follows the window's max, but a lone hitch (a debugger, a page-in) may not
  // flatten everything else: past 1.5 x p99 (and 2 budgets) it runs off the top, clipped,
  // and the table below gives its height.
  const Percentiles& shown = stacked ? w.total : (w.sim.max > w.render.max ? w.sim : w.render);
  const double cap = std::max(shown.p99 * 1.5, w.budget_ms * 2);
  const double y_max = std::max(w.budget_ms * 1.25, std::min(shown.max, cap) * 1.08);
  ScreenRect box;
  const float avail = std::max(60.0f, ImGui::GetContentRegionAvail().x) - 36;
  const std::size_t columns = std::min<std::size_t>(w.rows.size(), static_cast<std::size_t>(std::max(2.0f, avail)));
  Plot plot = begin_box("##frame_graph", height, y_max, columns, box);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (columns < 2) {
    dl->AddText(ImVec2(plot.left + 8, plot.top + 8), kLabel, "collecting frames...");
    return box;
  }
  // Growth markers and over-budget ticks first, so the lines stay on top.
  for (std::size_t c = 0; c < columns; ++c) {
    const Column col = column_of(w, c, columns);
    const float x = plot.x(c);
    if (col.over) dl->AddRectFilled(ImVec2(x - 1, plot.top - 4), ImVec2(x + 1, plot.top), budget);
    for (std::size_t i = 0; i < kPoolCount; ++i) {
      if ((col.grew & (1u << i)) == 0) continue;
      const std::uint32_t colour = pool(static_cast<PoolId>(i));
      dl->AddLine(ImVec2(x, plot.top), ImVec2(x, plot.bottom), with_alpha(colour, 150), 1.0f);
      dl->AddTriangleFilled(ImVec2(x - 4, plot.bottom), ImVec2(x + 4, plot.bottom), ImVec2(x, plot.bottom - 6), colour);
    }
  }
  if (stacked) {  // areas: simulation at the bottom, rendering on top of it
    for (std::size_t c = 1; c < columns; ++c) {
      const Column a = column_of(w, c - 1, columns), b = column_of(w, c, columns);
      const float xa = plot.x(c - 1), xb = plot.x(c);
      dl->AddQuadFilled(ImVec2(xa, plot.bottom), ImVec2(xa, plot.y(a.sim)), ImVec2(xb, plot.y(b.sim)),
                        ImVec2(xb, plot.bottom), with_alpha(sim_line, 70));
      dl->AddQuadFilled(ImVec2(xa, plot.y(a.sim)), ImVec2(xa, plot.y(a.total)), ImVec2(xb, plot.y(b.total)),
                        ImVec2(xb, plot.y(b.sim)), with_alpha(total_line, 55));
    }
  }
  // Lines: simulation, then sim + render (stacked) or render alone.
  for (int series = 0; series < 2; ++series) {
    pts.clear();
    for (std::size_t c = 0; c < columns; ++c) {
      const Column col = column_of(w, c, columns);
      const double ms = series == 0 ? col.sim : stacked ? col.total : static_cast<double>(col.total - col.sim);
      pts.emplace_back(plot.x(c), plot.y(ms));
    }
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), series == 0 ? sim_line : total_line, 0, 2.0f);
  }
  budget_line(dl, plot, w.budget_ms);
  if (hovered) frame_tooltip(w, plot, columns);
  return box;
}

ScreenRect draw_compare_graph(const CompareResult& r, float height, double budget_ms, std::vector<ImVec2>& pts) {
  float top = 0;
  for (const float v : r.pooled.sim_ms) top = std::max(top, v);
  for (const float v : r.heap.sim_ms) top = std::max(top, v);
  // As on the frame graph: once both runs are done, a lone hitch runs off the top instead
  // of flattening both lines (the table gives its height).
  if (r.done) top = std::min(top, static_cast<float>(std::max(r.pooled.sim.p99, r.heap.sim.p99) * 1.5));
  ScreenRect box;
  const float avail = std::max(60.0f, ImGui::GetContentRegionAvail().x) - 36;
  const std::size_t slots = std::max<std::size_t>(2, static_cast<std::size_t>(r.frames));
  const std::size_t columns = std::min<std::size_t>(slots, static_cast<std::size_t>(std::max(2.0f, avail)));
  const Plot plot = begin_box("##compare_graph", height, static_cast<double>(top) * 1.1, columns, box);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const CompareSeries* s : {&r.heap, &r.pooled}) {  // pooled last: it is usually lower
    pts.clear();
    const std::size_t n = s->sim_ms.size();
    for (std::size_t c = 0; c < columns; ++c) {
      const std::size_t a = c * slots / columns, b = std::max(a + 1, (c + 1) * slots / columns);
      if (a >= n) break;  // a run in progress: draw what exists
      float worst = 0;
      for (std::size_t i = a; i < b && i < n; ++i) worst = std::max(worst, s->sim_ms[i]);
      pts.emplace_back(plot.x(c), plot.y(static_cast<double>(worst)));
    }
    if (pts.size() >= 2) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s->pooling ? pooled : heap, 0, 2.0f);
  }
  budget_line(dl, plot, budget_ms);
  return box;
}

}  // namespace game
