#include "sim/collision_grid.hpp"

#include "sim/enemy_kinds.hpp"

#include <algorithm>
#include <cmath>

namespace game {

namespace {
// What a player bullet can strike: alive, on the field, and not armoured (a charger).
bool solid(const Enemy& e) { return e.hp > 0 && !e.gone && !charges(e); }
}  // namespace

CollisionGrid::CollisionGrid(const Rect& area, float cell_size, float query_radius)
    : area_(area), inv_cell_(1.0f / cell_size), query_radius_(query_radius) {
  columns_ = std::max(1, static_cast<std::int32_t>(std::ceil((area.max.x - area.min.x) * inv_cell_)));
  rows_ = std::max(1, static_cast<std::int32_t>(std::ceil((area.max.y - area.min.y) * inv_cell_)));
  const auto cells = static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_);
  cell_start_.assign(cells + 1, 0);
  cursor_.assign(cells, 0);
}

void CollisionGrid::reserve(std::size_t enemies) {
  // An enemy of radius r covers at most ceil(2(r+q)/cell)+1 cells per axis; bosses are the
  // largest (r = 44) and fit in 3x3 cells of 64 with q = 4, so 9 per enemy is enough; a
  // larger enemy only costs an allocation, never a wrong answer.
  entries_.reserve(enemies * 9);
}

bool CollisionGrid::cells_of(Vec2 center, float radius, CellRange& out) const noexcept {
  const float x0 = std::floor((center.x - radius - area_.min.x) * inv_cell_);
  const float y0 = std::floor((center.y - radius - area_.min.y) * inv_cell_);
  const float x1 = std::floor((center.x + radius - area_.min.x) * inv_cell_);
  const float y1 = std::floor((center.y + radius - area_.min.y) * inv_cell_);
  if (x1 < 0 || y1 < 0 || x0 >= static_cast<float>(columns_) || y0 >= static_cast<float>(rows_)) return false;
  out.x0 = std::max(0, static_cast<std::int32_t>(x0));
  out.y0 = std::max(0, static_cast<std::int32_t>(y0));
  out.x1 = std::min(columns_ - 1, static_cast<std::int32_t>(x1));
  out.y1 = std::min(rows_ - 1, static_cast<std::int32_t>(y1));
  return true;
}

void CollisionGrid::build(const std::vector<Enemy*>& enemies) {
  enemies_ = &enemies;
  std::fill(cell_start_.begin(), cell_start_.end(), 0u);
  CellRange r{};
  occupied_ = {{0, 0}, {-1, -1}};  // empty: contains nothing
  bool any = false;
  // Pass 1: count entries per cell, and the box they cover.
  for (const Enemy* e : enemies) {
    if (!solid(*e) || !cells_of(e->pos, e->radius + query_radius_, r)) continue;
    const float reach = e->radius + query_radius_;
    const Rect box{{e->pos.x - reach, e->pos.y - reach}, {e->pos.x + reach, e->pos.y + reach}};
    occupied_ = any ? Rect{{std::min(occupied_.min.x, box.min.x), std::min(occupied_.min.y, box.min.y)},
                           {std::max(occupied_.max.x, box.max.x), std::max(occupied_.max.y, box.max.y)}}
                    : box;
    any = true;
    for (std::int32_t y = r.y0; y <= r.y1; ++y) {
      for (std::int32_t x = r.x0; x <= r.x1; ++x) ++cell_start_[static_cast<std::size_t>(y * columns_ + x + 1)];
    }
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  std::copy(cell_start_.begin(), cell_start_.end() - 1, cursor_.begin());
  entries_.resize(cell_start_.back());
  // Pass 2: fill in enemy order (= seq order), which keeps each cell sorted by seq.
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    const Enemy* e = enemies[i];
    if (!solid(*e) || !cells_of(e->pos, e->radius + query_radius_, r)) continue;
    for (std::int32_t y = r.y0; y <= r.y1; ++y) {
      for (std::int32_t x = r.x0; x <= r.x1; ++x) {
        entries_[cursor_[static_cast<std::size_t>(y * columns_ + x)]++] = static_cast<std::uint32_t>(i);
      }
    }
  }
}

}  // namespace game
