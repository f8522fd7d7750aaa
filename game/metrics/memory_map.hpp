#pragma once
// game::MemoryMap: a pool's layout as a few thousand cells, each a run of object-storage
// positions (a power of two of them), with what a player needs to see in it: the share of the
// cell that is live, where pages start, the capacity past the last live object, and (the walk
// view) where in a manager's walk the cell's first live slot comes. Slot order then reads as a
// smooth gradient, a swap-pop list after churn as noise, a packed pool as one solid block.
//
// Built from VectorPool::for_each_occupancy_word (64 positions per call, so a million slots is
// 16k calls) into cells reserved up front: building never allocates, and stays well under a
// millisecond at a million slots (memory_map_bench). The same cells serve the overlay's draw
// list, the PNG of --memory-map and the report's run-length summary. No ImGui here.
//
// Heap mode has no slots: build_scatter() bins each object's address over the range they span
// (a cell is then a run of bytes), and the walk view ranks the lowest-address object of a cell.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace game {

struct MapCell {
  std::uint32_t live = 0;         // live objects in the cell
  std::uint32_t slots = 0;        // positions in the cell (heap: objects that would fill it)
  bool beyond_last_live = false;  // every position is past the last live object: spare capacity
  bool page_edge = false;         // a page of stable storage starts in this cell
  float walk = -1;                // walk view: rank (0 first .. 1 last) of the cell's first live slot; -1 none
  std::uint32_t walk_slot = 0;    // (scratch for the walk view: the lowest slot seen so far)
};

// The run-length summary the report prints: what churn did to the layout, as counts.
struct MapSummary {
  std::size_t positions = 0;     // slots that exist (heap: 0)
  std::size_t live = 0;          // live objects
  std::size_t live_runs = 0;     // maximal runs of live positions
  std::size_t holes = 0;         // maximal runs of free positions before the last live object
  std::size_t hole_slots = 0;    // free positions in those holes
  std::size_t longest_hole = 0;  // positions in the longest hole
  std::size_t tail_slots = 0;    // free positions after the last live object (spare capacity)
  // Cache lines a walk in address order crosses, from each page's first live object to its
  // last, and how many of them hold a byte of a live object (page starts assumed line-aligned).
  std::size_t lines_spanned = 0;
  std::size_t lines_live = 0;
  std::size_t span_bytes = 0;  // heap: bytes from the lowest object to the end of the highest
  // Share of the lines crossed that hold a live object. None (the overlay's "n/a", the
  // report's null) where no line is crossed: an empty pool, or a heap map, which has no slots.
  std::optional<double> line_share() const noexcept {
    if (lines_spanned == 0) return std::nullopt;
    return static_cast<double>(lines_live) / static_cast<double>(lines_spanned);
  }
  // Heap map: the share of the span the objects themselves fill. None without an object.
  std::optional<double> heap_density(std::size_t object_bytes) const noexcept {
    if (span_bytes == 0 || live == 0) return std::nullopt;
    return static_cast<double>(live * object_bytes) / static_cast<double>(span_bytes);
  }
};

class MemoryMap {
 public:
  static constexpr std::size_t kMaxCells = 2048;  // 128 x 16 in the overlay

  MemoryMap();  // reserves kMaxCells cells

  // The pool's occupancy: any pool with for_each_occupancy_word, occupancy_page_slots and
  // capacity (engine::VectorPool). slot_bytes: the object stride, for the cache-line count.
  template <class Pool>
  void build(const Pool& pool, std::size_t slot_bytes, std::size_t max_cells = kMaxCells) {
    begin(pool.capacity(), pool.occupancy_page_slots(), slot_bytes, max_cells);
    pool.for_each_occupancy_word(
        [this](std::size_t first, std::uint64_t bits, unsigned valid) { add_word(first, bits, valid); });
    finish();
  }
  // The same in steps (tests, other sources): positions in ascending order, 64-aligned words.
  void begin(std::size_t positions, std::size_t page_slots, std::size_t slot_bytes, std::size_t max_cells = kMaxCells);
  void add_word(std::size_t first, std::uint64_t bits, unsigned valid) noexcept;
  void finish() noexcept;

  // The walk-order view, the seam for a manager's active-index list: walk[k] is the slot the
  // k-th step of the walk visits. Each cell gets the rank k / n of its lowest slot in the walk.
  // Call after build(); slots past the map are ignored. Never allocates.
  void build_walk_view(const std::uint32_t* walk, std::size_t n) noexcept;

  // Heap mode: objects[k] is the k-th object of the walk (ObjectStore's pointer array).
  // Cells are runs of bytes over [lowest, highest + object_bytes); live = objects starting there.
  void build_scatter(const void* const* objects, std::size_t n, std::size_t object_bytes,
                     std::size_t max_cells = kMaxCells) noexcept;

  const std::vector<MapCell>& cells() const noexcept { return cells_; }
  std::size_t positions_per_cell() const noexcept { return std::size_t{1} << cell_shift_; }  // heap: bytes
  const MapSummary& summary() const noexcept { return summary_; }
  bool scatter() const noexcept { return scatter_; }
  std::uintptr_t scatter_base() const noexcept { return scatter_base_; }  // heap: lowest object address

 private:
  void build_line_tables() noexcept;
  // The walk views' two steps: a cell keeps the walk position of its lowest slot (`within`
  // the cell), then every position is scaled to 0..1 by the walk's length `n`.
  static void note_walk(MapCell& cell, std::uint32_t within, std::size_t k) noexcept;
  void normalise_walk(std::size_t n) noexcept;

  std::vector<MapCell> cells_;
  MapSummary summary_;
  unsigned cell_shift_ = 0;     // position >> cell_shift_ = cell
  std::size_t page_slots_ = 0;  // 0: one buffer
  std::size_t slot_bytes_ = 1;
  // Lines a word's live slots touch. A stride that is a multiple of 8 bytes puts every 8 slots
  // on whole lines (8 * stride is a multiple of 64), so a table by byte of the word answers in
  // 8 lookups; other strides up to 256 bytes test the word against each line's slot mask.
  std::array<std::uint8_t, 256> lines_by_byte_{};
  std::array<std::uint64_t, 256> line_masks_{};
  std::size_t table_stride_ = 0;  // the stride the tables were built for (0: none)
  // Run-length state while building: free positions since the last live one, and whether the
  // position just before the current word was live.
  std::size_t open_free_ = 0;
  bool previous_live_ = false;
  std::size_t last_live_ = 0;           // highest live position + 1 (0: none)
  std::size_t page_ = ~std::size_t{0};  // page being scanned, for the lines crossed
  std::size_t page_first_line_ = 0, page_last_line_ = 0;
  bool page_has_live_ = false;
  bool scatter_ = false;
  std::uintptr_t scatter_base_ = 0;
};

// Colours the overlay and the PNG share, as 0xAABBGGRR (ImGui's IM_COL32 packing and
// engine::Image's): occupancy from red (a hole) to green (all live), spare capacity grey-blue;
// walk rank from deep blue (first) to yellow (last), a cell without live objects dark.
std::uint32_t occupancy_color(const MapCell& cell) noexcept;
std::uint32_t walk_color(const MapCell& cell) noexcept;
inline constexpr std::uint32_t kPageEdgeColor = 0xFFFFFFFFu;
// The grid both pictures lay the cells out on, row by row: 64 columns, so kMaxCells fill 32 rows.
inline constexpr std::size_t kMapColumns = 64;
inline std::size_t map_rows(const MemoryMap& map) noexcept {
  return (map.cells().size() + kMapColumns - 1) / kMapColumns;
}

}  // namespace game
