#pragma once
// The overlay's "Memory map" section: per pool, its occupancy and its walk order side by side
// (heap mode: the objects' addresses), then the allocator's figures and the resident set.
// Drawn from a MemorySnapshot the game refreshes a few times a second, never built here.
#include "metrics/memory_snapshot.hpp"
#include "overlay/overlay_graph.hpp"

#include <array>

namespace game {

struct MemoryMapRects {  // where each pool's two blocks were drawn (tests check their pixels)
  std::array<ScreenRect, kPoolCount> occupancy{}, walk{};
};

MemoryMapRects draw_memory_map(const MemorySnapshot& snapshot);

}  // namespace game
