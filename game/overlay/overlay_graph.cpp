#include "overlay/overlay_graph.hpp"

#include "overlay/overlay_graph_plot.hpp"

#include <algorithm>

namespace game {

namespace overlay_colors {

std::uint32_t pool(PoolId id) noexcept {
  switch (id) {
    case PoolId::bullets:
      return pack(120, 255, 230);
    case PoolId::enemy_bullets:
      return pack(255, 110, 170);
    case PoolId::particles:
      return pack(255, 190, 70);
    case PoolId::enemies:
      return pack(175, 140, 255);
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
using namespace graph_detail;

}  // namespace

ScreenRect draw_compare_graph(const CompareResult& r, float height, double budget_ms, std::vector<ImVec2>& pts) {
  float top = 0;
  for (const CompareSeries* s : {&r.pooled, &r.heap}) {
    for (std::size_t i = 0; i < s->steps(); ++i) top = std::max(top, s->sim_ms(i));
  }
  // As on the frame graph: once both runs are done, a lone hitch runs off the top instead
  // of flattening both lines (the table gives its height).
  if (r.done) top = std::min(top, static_cast<float>(std::max(r.pooled.sim.p99, r.heap.sim.p99) * 1.5));
  const float avail = std::max(60.0f, ImGui::GetContentRegionAvail().x) - kAxisWidth;
  const std::size_t slots = std::max<std::size_t>(2, static_cast<std::size_t>(r.frames));
  const std::size_t columns = std::min<std::size_t>(slots, static_cast<std::size_t>(std::max(2.0f, avail)));
  const ScreenRect box = graph_box("##compare_graph", height);
  const Plot plot = lane(box, box.y0 + kInset, box.y1 - kInset, static_cast<double>(top) * 1.1, columns, 4);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const CompareSeries* s : {&r.heap, &r.pooled}) {  // pooled last: it is usually lower
    pts.clear();
    const std::size_t n = s->steps();
    for (std::size_t c = 0; c < columns; ++c) {
      const std::size_t a = c * slots / columns, b = std::max(a + 1, (c + 1) * slots / columns);
      if (a >= n) break;  // a run in progress: draw what exists
      float worst = 0;
      for (std::size_t i = a; i < b && i < n; ++i) worst = std::max(worst, s->sim_ms(i));
      pts.emplace_back(plot.x(c), plot.y(static_cast<double>(worst)));
    }
    if (pts.size() >= 2) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s->pooling ? pooled : heap, 0, 2.0f);
  }
  budget_line(dl, plot, budget_ms);
  return box;
}

}  // namespace game
