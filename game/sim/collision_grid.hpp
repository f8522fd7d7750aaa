#pragma once
// game::CollisionGrid: a uniform grid over the playfield, rebuilt every step from the live
// enemies, that answers "which enemy does this bullet touch?" in one cell lookup.
// Built by counting sort into flat arrays that keep their capacity, so a rebuild allocates
// nothing once the arrays have seen the largest enemy count. Enemies go in by ascending
// sequence number, so every cell lists them in spawn order and the first overlap found is
// the lowest sequence number: a bullet touching two enemies always hits the same one.
#include "entities.hpp"
#include "rect.hpp"

#include <cstdint>
#include <vector>

namespace game {

class CollisionGrid {
 public:
  // Cells of `cell_size` over `area`; `query_radius` is the largest radius a query uses.
  CollisionGrid(const Rect& area, float cell_size, float query_radius);

  // Makes room for `enemies` entries (call when the enemy store grows), so build() does not allocate.
  void reserve(std::size_t enemies);
  // enemies must be sorted by seq; dead ones (hp <= 0 or gone) are left out.
  void build(const std::vector<Enemy*>& enemies);
  // Index into the build() vector of the lowest-seq enemy overlapping the circle, or -1.
  // radius must not exceed the query_radius given to the constructor.
  std::int32_t first_overlap(Vec2 center, float radius) const;

  std::size_t entry_count() const noexcept { return entries_.size(); }

 private:
  struct CellRange {
    std::int32_t x0, y0, x1, y1;
  };
  bool cells_of(Vec2 center, float radius, CellRange& out) const noexcept;

  Rect area_;
  float cell_size_;
  float inv_cell_;
  float query_radius_;
  std::int32_t columns_, rows_;
  std::vector<std::uint32_t> cell_start_;  // columns*rows + 1 offsets into entries_
  std::vector<std::uint32_t> cursor_;      // fill position per cell during build
  std::vector<std::uint32_t> entries_;     // enemy indices, grouped by cell
  const std::vector<Enemy*>* enemies_ = nullptr;
};

}  // namespace game
