#pragma once
// An axis-aligned rectangle in world units (the playfield, and the margin around it).
#include "sim/vec2.hpp"

namespace game {

struct Rect {
  Vec2 min, max;
  constexpr bool contains(Vec2 p) const noexcept {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
  }
  constexpr Rect expanded(float by) const noexcept { return {{min.x - by, min.y - by}, {max.x + by, max.y + by}}; }
};

}  // namespace game
