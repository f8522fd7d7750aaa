#include "overlay/overlay_memory_map.hpp"

#include "overlay/overlay_widgets.hpp"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <optional>

namespace game {

namespace {

using namespace overlay_widgets;

constexpr float kCellW = 3, kCellH = 2;  // 64 x 32 cells: a 192 x 64 pixel block

// One block of cells at `origin`, a row of equal colours drawn as one rectangle (a dense or
// empty pool costs a few rectangles, not thousands); page edges as white ticks.
template <class Colour>
ScreenRect draw_block(ImDrawList* draw, ImVec2 origin, const MemoryMap& map, Colour colour) {
  const std::vector<MapCell>& cells = map.cells();
  const std::size_t rows = map_rows(map);
  for (std::size_t r = 0; r < rows; ++r) {
    const float y = origin.y + static_cast<float>(r) * kCellH;
    std::size_t c = 0;
    while (c < kMapColumns && r * kMapColumns + c < cells.size()) {
      const std::uint32_t col = colour(cells[r * kMapColumns + c]);
      std::size_t end = c + 1;
      while (end < kMapColumns && r * kMapColumns + end < cells.size() && colour(cells[r * kMapColumns + end]) == col)
        ++end;
      draw->AddRectFilled(ImVec2(origin.x + static_cast<float>(c) * kCellW, y),
                          ImVec2(origin.x + static_cast<float>(end) * kCellW, y + kCellH), col);
      c = end;
    }
  }
  for (std::size_t i = 1; i < cells.size(); ++i) {
    if (!cells[i].page_edge) continue;
    const float x = origin.x + static_cast<float>(i % kMapColumns) * kCellW;
    const float y = origin.y + static_cast<float>(i / kMapColumns) * kCellH;
    draw->AddLine(ImVec2(x, y - 1), ImVec2(x, y + kCellH + 1), kPageEdgeColor);
  }
  const float w = static_cast<float>(kMapColumns) * kCellW, h = static_cast<float>(rows) * kCellH;
  return {origin.x, origin.y, origin.x + w, origin.y + h};
}

// The pool's figures beside its name, wrapped at the column's edge; n/a where a figure has
// nothing to measure (no live object; a heap map has no slots, so no holes or lines).
void pool_line(const PoolMemory& m) {
  const MapSummary& s = m.map.summary();
  ImGui::TextColored(overlay_colors::vec(overlay_colors::pool(m.id)), "%s", short_name(m.id));
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  if (!m.pooled) {
    const std::optional<double> density = s.heap_density(m.object_bytes);
    if (density) {
      ImGui::TextColored(kBad, "heap: %s objects scattered over %s of addresses, %.1f %% of it theirs",
                         Compact(static_cast<double>(s.live)).text, Bytes(s.span_bytes).text, 100.0 * *density);
    } else {
      ImGui::TextColored(kDim, "heap: no objects");
    }
  } else if (s.live == 0) {  // no live object: no holes between live ones, and no lines to share
    ImGui::TextColored(kDim, "0/%s live, holes n/a, lines n/a", Compact(static_cast<double>(s.positions)).text);
  } else {
    const std::optional<double> share = s.line_share();
    char lines[16] = "n/a";
    if (share) std::snprintf(lines, sizeof lines, "%.0f %%", 100.0 * *share);
    ImGui::TextColored(kDim, "%s/%s live, %s holes (longest %s), lines live %s",
                       Compact(static_cast<double>(s.live)).text, Compact(static_cast<double>(s.positions)).text,
                       Compact(static_cast<double>(s.holes)).text, Compact(static_cast<double>(s.longest_hole)).text,
                       lines);
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

MemoryMapRects draw_memory_map(const MemorySnapshot& snapshot) {
  MemoryMapRects rects;
  if (!snapshot.taken()) {
    ImGui::TextColored(kDim, "(no snapshot yet)");
    return rects;
  }
  ImGui::TextColored(kDim, "left: live share per cell  right: walk order  (step %" PRIu64 ")", snapshot.step());
  help_marker(
      "Each cell is a run of slots. Left: green where every slot holds a live object, red where none does "
      "(a hole), grey-blue past the last live object (capacity not in use); white ticks are page edges "
      "(stable storage). Right: where in the manager's walk the cell's first live slot comes, blue first, "
      "yellow last: a smooth gradient is a walk in address order, noise a scrambled one. With pooling off "
      "a cell is a run of heap addresses between the lowest and the highest object.");
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const PoolMemory& m : snapshot.pools()) {
    pool_line(m);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float block_w = static_cast<float>(kMapColumns) * kCellW;
    const std::size_t i = static_cast<std::size_t>(m.id);
    rects.occupancy[i] = draw_block(draw, origin, m.map, [](const MapCell& c) { return occupancy_color(c); });
    rects.walk[i] = draw_block(draw, ImVec2(origin.x + block_w + 12, origin.y), m.map,
                               [](const MapCell& c) { return walk_color(c); });
    ImGui::Dummy(ImVec2(2 * block_w + 12, std::max(rects.occupancy[i].y1 - origin.y, 2.0f) + 2));
  }
  // Two lines, so the section fits the 720-pixel column beside Pools and Memory (which shows
  // what the pools hold).
  const HeapFigures& h = snapshot.heap();
  if (h.valid) {
    ImGui::Text("arena %s, in use %s, resident %s", Bytes(h.arena_bytes).text, Bytes(h.in_use_bytes).text,
                Bytes(h.resident_bytes).text);
    help_marker(
        "glibc mallinfo2(): the arena is what malloc took from the system, in use what live allocations "
        "hold. Resident is the process's resident set (/proc/self/statm), pools and all.");
    ImGui::Text("free but held %s in %s chunks:", Bytes(h.free_bytes).text,
                Compact(static_cast<double>(h.free_chunks)).text);
    ImGui::SameLine();
    ImGui::TextColored(h.fragmentation() > 0.25 ? kBad : kGood, "%.0f %% of the arena", 100.0 * h.fragmentation());
    help_marker(
        "Free-but-held is memory no object uses that the allocator keeps, cut into that many free chunks. "
        "Many small new/delete calls leave it behind; a pool holds its slots instead, and reuses them.");
  } else {
    ImGui::TextColored(kDim, "allocator figures: not glibc;");
    ImGui::SameLine();
    ImGui::Text("resident %s (statm)", Bytes(h.resident_bytes).text);
  }
  return rects;
}

}  // namespace game
