#include "metrics/memory_map.hpp"

#include <algorithm>
#include <cmath>

namespace game {

namespace {

constexpr std::size_t kWordBits = 64;
constexpr std::size_t kLineBytes = 64;

unsigned shift_for(std::size_t per_cell) noexcept {  // smallest s with 2^s >= per_cell
  unsigned s = 0;
  while ((std::size_t{1} << s) < per_cell) ++s;
  return s;
}

std::uint64_t low_bits(unsigned n) noexcept { return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }

unsigned popcount(std::uint64_t v) noexcept { return static_cast<unsigned>(__builtin_popcountll(v)); }

std::uint32_t pack(float r, float g, float b) noexcept {
  const auto c = [](float v) { return static_cast<std::uint32_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
  return 0xFF000000u | (c(b) << 16) | (c(g) << 8) | c(r);
}

}  // namespace

MemoryMap::MemoryMap() { cells_.reserve(kMaxCells); }

void MemoryMap::begin(std::size_t positions, std::size_t page_slots, std::size_t slot_bytes, std::size_t max_cells) {
  max_cells = std::clamp<std::size_t>(max_cells, 1, kMaxCells);
  scatter_ = false;
  summary_ = MapSummary{};
  summary_.positions = positions;
  page_slots_ = page_slots;
  slot_bytes_ = std::max<std::size_t>(slot_bytes, 1);
  cell_shift_ = shift_for((positions + max_cells - 1) / max_cells);
  const std::size_t per_cell = std::size_t{1} << cell_shift_;
  const std::size_t count = (positions + per_cell - 1) >> cell_shift_;
  cells_.assign(count, MapCell{});  // within the reservation: no allocation
  for (std::size_t c = 0; c < count; ++c) {
    cells_[c].slots = static_cast<std::uint32_t>(std::min(per_cell, positions - c * per_cell));
    // A page starts in this cell when a multiple of page_slots falls in [c * per_cell, next).
    if (page_slots_ != 0) cells_[c].page_edge = (c * per_cell) % page_slots_ == 0 || per_cell > page_slots_;
  }
  build_line_tables();
  open_free_ = 0;
  previous_live_ = false;
  last_live_ = 0;
  page_ = ~std::size_t{0};
  page_has_live_ = false;
}

void MemoryMap::build_line_tables() noexcept {
  if (table_stride_ == slot_bytes_) return;
  table_stride_ = slot_bytes_ <= line_masks_.size() ? slot_bytes_ : 0;
  if (table_stride_ == 0) return;
  // Slot i of a word overlaps lines [i * stride / 64, ((i + 1) * stride - 1) / 64] of the word's
  // 64 * stride bytes (a word starts on a line, since 64 * stride is a multiple of 64).
  for (std::size_t j = 0; j < slot_bytes_; ++j) {
    const std::size_t lo = j * kLineBytes / slot_bytes_;
    const std::size_t hi = std::min<std::size_t>(63, (j * kLineBytes + kLineBytes - 1) / slot_bytes_);
    line_masks_[j] = low_bits(static_cast<unsigned>(hi + 1)) & ~low_bits(static_cast<unsigned>(lo));
  }
  if (slot_bytes_ % 8 != 0) return;
  const std::size_t lines_per_byte = slot_bytes_ / 8;  // 8 slots fill this many whole lines
  for (std::size_t byte = 0; byte < lines_by_byte_.size(); ++byte) {
    std::size_t lines = 0;
    for (std::size_t j = 0; j < lines_per_byte; ++j) lines += (byte & line_masks_[j]) != 0 ? 1u : 0u;
    lines_by_byte_[byte] = static_cast<std::uint8_t>(lines);
  }
}

void MemoryMap::add_word(std::size_t first, std::uint64_t bits, unsigned valid) noexcept {
  if (valid == 0 || first >= summary_.positions) return;
  bits &= low_bits(valid);
  // Cells: one cell holds whole words, or a word spans several cells of a power-of-two size.
  if (cell_shift_ >= 6) {
    cells_[first >> cell_shift_].live += popcount(bits);
  } else {
    const unsigned per_cell = 1u << cell_shift_;
    for (unsigned i = 0; i < valid; i += per_cell) {
      cells_[(first + i) >> cell_shift_].live += popcount((bits >> i) & low_bits(per_cell));
    }
  }
  // Runs, a word at a time: run starts are bits whose lower neighbour differs.
  if (bits == 0) {
    open_free_ += valid;
    previous_live_ = false;
    return;
  }
  const std::uint64_t free_bits = ~bits & low_bits(valid);
  const auto lead_free = static_cast<std::size_t>(__builtin_ctzll(bits));
  const std::size_t top = 63 - static_cast<std::size_t>(__builtin_clzll(bits));
  const std::size_t trail_free = valid - 1 - top;
  // The free run reaching into this word from below ends here: a hole (also one at position 0).
  if (open_free_ + lead_free > 0) {
    ++summary_.holes;
    summary_.longest_hole = std::max(summary_.longest_hole, open_free_ + lead_free);
  }
  // Free runs strictly inside the word: all free-run starts but the leading and trailing runs.
  const std::uint64_t inner_free =
      free_bits & ~low_bits(static_cast<unsigned>(lead_free)) & low_bits(static_cast<unsigned>(top + 1));
  if (inner_free != 0) {
    summary_.holes += popcount(inner_free & ~(inner_free << 1));
    std::size_t longest = 0;  // z & (z >> 1) shortens every run by one: the rounds are the longest run
    for (std::uint64_t z = inner_free; z != 0; z &= z >> 1) ++longest;
    summary_.longest_hole = std::max(summary_.longest_hole, longest);
  }
  summary_.live_runs += popcount(bits & ~(bits << 1)) - ((bits & 1u) != 0 && previous_live_ ? 1u : 0u);
  open_free_ = trail_free;
  previous_live_ = trail_free == 0;
  summary_.live += popcount(bits);
  last_live_ = first + 64 - static_cast<std::size_t>(__builtin_clzll(bits));
  // Cache lines: which page, where in it, the first and last live line, the lines holding one.
  const std::size_t page = page_slots_ == 0 ? 0 : first / page_slots_;
  const std::size_t offset = page_slots_ == 0 ? first : first % page_slots_;
  const std::size_t word_line = offset / kWordBits * slot_bytes_;  // the word's first line in the page
  const std::size_t first_line = word_line + lead_free * slot_bytes_ / kLineBytes;
  const std::size_t last_line = word_line + ((top + 1) * slot_bytes_ - 1) / kLineBytes;
  if (page != page_) {
    if (page_has_live_) summary_.lines_spanned += page_last_line_ - page_first_line_ + 1;
    page_ = page;
    page_first_line_ = first_line;
    page_has_live_ = true;
  }
  page_last_line_ = last_line;
  if (bits == ~std::uint64_t{0}) {
    summary_.lines_live += slot_bytes_;  // a full word fills its 64 * stride bytes: stride lines
  } else if (table_stride_ != 0 && slot_bytes_ % 8 == 0) {
    for (unsigned b = 0; b < 64; b += 8) summary_.lines_live += lines_by_byte_[(bits >> b) & 0xFFu];
  } else if (table_stride_ != 0) {
    std::size_t lines = 0;
    for (std::size_t j = 0; j < slot_bytes_; ++j) lines += (bits & line_masks_[j]) != 0 ? 1u : 0u;
    summary_.lines_live += lines;
  } else {
    std::size_t counted_to = 0;  // lines below this (relative to the word) are counted
    for (std::uint64_t b = bits; b != 0; b &= b - 1) {
      const auto i = static_cast<std::size_t>(__builtin_ctzll(b));
      const std::size_t lo = std::max(counted_to, i * slot_bytes_ / kLineBytes);
      const std::size_t hi = ((i + 1) * slot_bytes_ - 1) / kLineBytes + 1;
      if (hi > lo) summary_.lines_live += hi - lo;
      counted_to = std::max(counted_to, hi);
    }
  }
}

void MemoryMap::finish() noexcept {
  summary_.tail_slots = open_free_;  // free after the last live object: spare capacity, not a hole
  summary_.hole_slots = last_live_ - summary_.live;
  if (page_has_live_) summary_.lines_spanned += page_last_line_ - page_first_line_ + 1;
  const std::size_t per_cell = positions_per_cell();
  for (std::size_t c = 0; c < cells_.size(); ++c) cells_[c].beyond_last_live = c * per_cell >= last_live_;
}

void MemoryMap::build_walk_view(const std::uint32_t* walk, std::size_t n) noexcept {
  for (MapCell& cell : cells_) cell.walk = -1;
  if (scatter_ || n == 0) return;
  const std::size_t count = cells_.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t slot = walk[k];
    const std::size_t c = slot >> cell_shift_;
    if (c >= count) continue;
    note_walk(cells_[c], slot, k);
  }
  normalise_walk(n);
}

void MemoryMap::note_walk(MapCell& cell, std::uint32_t within, std::size_t k) noexcept {
  if (cell.walk < 0 || within < cell.walk_slot) {
    cell.walk_slot = within;
    cell.walk = static_cast<float>(k);
  }
}

void MemoryMap::normalise_walk(std::size_t n) noexcept {
  const float last = n > 1 ? static_cast<float>(n - 1) : 1.0f;
  for (MapCell& cell : cells_) {
    if (cell.walk >= 0) cell.walk /= last;
  }
}

void MemoryMap::build_scatter(const void* const* objects, std::size_t n, std::size_t object_bytes,
                              std::size_t max_cells) noexcept {
  max_cells = std::clamp<std::size_t>(max_cells, 1, kMaxCells);
  object_bytes = std::max<std::size_t>(object_bytes, 1);
  scatter_ = true;
  summary_ = MapSummary{};
  summary_.live = n;
  cells_.clear();
  scatter_base_ = 0;
  if (n == 0) return;
  std::uintptr_t lowest = ~std::uintptr_t{0}, highest = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const auto a = reinterpret_cast<std::uintptr_t>(objects[k]);
    lowest = std::min(lowest, a);
    highest = std::max(highest, a);
  }
  scatter_base_ = lowest;
  const std::size_t span = static_cast<std::size_t>(highest - lowest) + object_bytes;
  summary_.span_bytes = span;
  cell_shift_ = shift_for(std::max<std::size_t>((span + max_cells - 1) / max_cells, 1));
  const std::size_t cell_bytes = std::size_t{1} << cell_shift_;
  const std::size_t count = (span + cell_bytes - 1) >> cell_shift_;
  cells_.assign(count, MapCell{});
  const auto fits = static_cast<std::uint32_t>(std::max<std::size_t>(cell_bytes / object_bytes, 1));
  for (MapCell& cell : cells_) cell.slots = fits;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(objects[k]) - lowest;
    MapCell& cell = cells_[offset >> cell_shift_];
    const auto within = static_cast<std::uint32_t>(offset & (cell_bytes - 1));
    cell.live = std::min(cell.live + 1, fits);
    note_walk(cell, within, k);
  }
  normalise_walk(n);
}

std::uint32_t occupancy_color(const MapCell& cell) noexcept {
  if (cell.slots == 0) return 0xFF000000u;
  if (cell.beyond_last_live) return pack(0.20f, 0.23f, 0.32f);  // capacity never reached by a live object
  const float share = static_cast<float>(cell.live) / static_cast<float>(cell.slots);
  if (share <= 0) return pack(0.55f, 0.08f, 0.10f);  // a whole cell of holes
  return pack(0.95f - 0.80f * share, 0.25f + 0.65f * share, 0.20f);
}

std::uint32_t walk_color(const MapCell& cell) noexcept {
  if (cell.walk < 0) return pack(0.08f, 0.08f, 0.10f);
  const float t = std::clamp(cell.walk, 0.0f, 1.0f);
  return pack(0.15f + 0.85f * t, 0.20f + 0.70f * t, 0.85f - 0.75f * t);  // blue (first) to yellow (last)
}

}  // namespace game
