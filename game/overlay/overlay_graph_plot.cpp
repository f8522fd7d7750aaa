#include "overlay/overlay_graph_plot.hpp"

#include "metrics/axis_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace game::graph_detail {

ScreenRect graph_box(const char* id, float height) {
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float width = std::max(60.0f, ImGui::GetContentRegionAvail().x);
  ImGui::InvisibleButton(id, ImVec2(width, height));
  const ScreenRect box{p0.x, p0.y, p0.x + width, p0.y + height};
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), overlay_colors::graph_bg,
                                            3.0f);
  return box;
}

Plot lane(const ScreenRect& box, float top, float bottom, double y_max, std::size_t slots, int grid_lines) {
  Plot plot{box.x0 + kAxisWidth, top, box.x1 - kInset, bottom, std::max(y_max, 0.001), slots};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const double step = nice_step(plot.y_max / std::max(1, grid_lines));
  char label[16];
  // Steps are 1, 2 or 5 times a power of ten: that power's decimals tell every label apart.
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  for (double ms = 0; ms <= plot.y_max + step * 1e-6; ms += step) {
    const float y = plot.y(ms);
    dl->AddLine(ImVec2(plot.left, y), ImVec2(plot.right, y), kGrid);
    std::snprintf(label, sizeof label, "%.*f", decimals, ms);
    // The top line's label sits below it, the others centred on theirs: none leaves the lane.
    const float h = ImGui::GetTextLineHeight();
    dl->AddText(ImVec2(box.x0 + 3, std::clamp(y - h / 2, top - 2, bottom - h + 2)), kLabel, label);
  }
  return plot;
}

void budget_line(ImDrawList* dl, const Plot& plot, double budget_ms) {
  if (budget_ms >= plot.y_max) return;
  const float y = plot.y(budget_ms);
  for (float x = plot.left; x < plot.right; x += 8)
    dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 4, plot.right), y), overlay_colors::budget, 1.5f);
  // Its label in the axis column, left of the lane, where no curve runs (over the grid's label
  // there, if one is that close).
  char label[24];
  std::snprintf(label, sizeof label, "%.1f", budget_ms);
  const ImVec2 size = ImGui::CalcTextSize(label);
  tag_text(dl, ImVec2(plot.left - size.x - 4, std::clamp(y - size.y / 2, plot.top - 2, plot.bottom - size.y + 2)),
           overlay_colors::budget, label);
}

void tag_text(ImDrawList* dl, ImVec2 at, std::uint32_t colour, const char* text) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + size.x + 2, at.y + size.y), overlay_colors::graph_bg, 2.0f);
  dl->AddText(at, colour, text);
}

}  // namespace game::graph_detail
