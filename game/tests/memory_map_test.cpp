// MemoryMap against pools with known holes: the run-length summary, a few cells, the cache
// lines, the walk view (slot order a gradient, a shuffled list noise) and the heap scatter.
#include "metrics/memory_map.hpp"

#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace game {
namespace {

struct Shot {  // 16 bytes: four to a cache line
  float x, y, vx, vy;
};
static_assert(sizeof(Shot) == 16);

// A contiguous pool of `capacity` slots, all filled, then `holes` released.
engine::VectorPool<Shot> pool_with_holes(std::size_t capacity, const std::vector<std::size_t>& holes) {
  engine::GrowthPolicy policy;
  policy.initial_capacity = capacity;
  engine::VectorPool<Shot> pool(policy);
  std::vector<engine::PoolHandle> handles;
  for (std::size_t i = 0; i < capacity; ++i) handles.push_back(*pool.emplace(Shot{}));
  for (std::size_t i : holes) EXPECT_TRUE(pool.release(handles[i]));
  return pool;
}

TEST(MemoryMap, RunLengthSummaryOfKnownHoles) {
  // Holes: [0,2) at the front, [10,13), [64,164) across words, and the tail [900,1024).
  std::vector<std::size_t> holes = {0, 1, 10, 11, 12};
  for (std::size_t i = 64; i < 164; ++i) holes.push_back(i);
  for (std::size_t i = 900; i < 1024; ++i) holes.push_back(i);
  const auto pool = pool_with_holes(1024, holes);
  MemoryMap map;
  map.build(pool, sizeof(Shot), 64);  // 64 cells of 16 slots
  const MapSummary& s = map.summary();
  EXPECT_EQ(s.positions, 1024u);
  EXPECT_EQ(s.live, 1024u - holes.size());
  EXPECT_EQ(s.holes, 3u);
  EXPECT_EQ(s.hole_slots, 105u);
  EXPECT_EQ(s.longest_hole, 100u);
  EXPECT_EQ(s.tail_slots, 124u);
  EXPECT_EQ(s.live_runs, 3u);  // [2,10), [13,64), [164,900)

  ASSERT_EQ(map.positions_per_cell(), 16u);
  ASSERT_EQ(map.cells().size(), 64u);
  EXPECT_EQ(map.cells()[0].live, 11u);  // 16 minus slots 0, 1, 10, 11, 12
  EXPECT_EQ(map.cells()[4].live, 0u);   // slots 64..79: inside the long hole
  EXPECT_FALSE(map.cells()[4].beyond_last_live);
  EXPECT_EQ(map.cells()[10].live, 12u);  // slots 160..175: 164..175 live
  EXPECT_EQ(map.cells()[20].live, 16u);
  EXPECT_EQ(map.cells()[56].live, 4u);  // slots 896..911: 896..899 live
  EXPECT_FALSE(map.cells()[56].beyond_last_live);
  EXPECT_TRUE(map.cells()[57].beyond_last_live) << "capacity past the last live object";
  EXPECT_TRUE(map.cells()[63].beyond_last_live);
}

TEST(MemoryMap, SmallCellsSplitAWord) {
  const auto pool = pool_with_holes(64, {1, 3, 5, 7});
  MemoryMap map;
  map.build(pool, sizeof(Shot), 32);  // 2 slots per cell
  ASSERT_EQ(map.positions_per_cell(), 2u);
  EXPECT_EQ(map.cells()[0].live, 1u);
  EXPECT_EQ(map.cells()[3].live, 1u);
  EXPECT_EQ(map.cells()[4].live, 2u);
  EXPECT_EQ(map.summary().holes, 4u);
  EXPECT_EQ(map.summary().longest_hole, 1u);
}

TEST(MemoryMap, CacheLinesTouchedHoldingALiveObject) {
  // 16-byte slots, four to a line. Dense: every line crossed holds a live object.
  MemoryMap map;
  const auto dense = pool_with_holes(256, {});
  map.build(dense, sizeof(Shot));
  EXPECT_EQ(map.summary().lines_spanned, 64u);
  EXPECT_EQ(map.summary().lines_live, 64u);
  EXPECT_DOUBLE_EQ(map.summary().line_share().value_or(-1), 1.0);
  // Release whole lines 1, 3, 5 (slots 4..7, 12..15, 20..23) and half of line 8.
  const auto holed = pool_with_holes(256, {4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 32, 33});
  map.build(holed, sizeof(Shot));
  EXPECT_EQ(map.summary().lines_spanned, 64u);
  EXPECT_EQ(map.summary().lines_live, 61u);
  EXPECT_NEAR(map.summary().line_share().value_or(-1), 61.0 / 64.0, 1e-12);
  // A stride that is not a divisor of the line (48 bytes: a slot may straddle two lines).
  MemoryMap wide;
  wide.begin(128, 0, 48);
  wide.add_word(0, 0b1, 64);                     // slot 0: bytes 0..47, line 0
  wide.add_word(64, std::uint64_t{1} << 1, 64);  // slot 65: word bytes 48..95, lines 0 and 1 of the word
  wide.finish();
  EXPECT_EQ(wide.summary().lines_live, 3u);
  EXPECT_EQ(wide.summary().lines_spanned, 48u + 2u);  // line 0 of word 0 to line 1 of word 1
}

// The word-at-a-time summary against a position-by-position reference, over random layouts,
// densities, page sizes and strides (multiples of 8 use the byte table, 20 the line masks, 300
// the per-slot fallback).
TEST(MemoryMap, SummaryMatchesAPositionByPositionReference) {
  std::mt19937 rng(18);
  for (int round = 0; round < 60; ++round) {
    const std::size_t positions = 64 * (1 + rng() % 40) - (round % 3 == 0 ? rng() % 63 : 0);
    const std::size_t page = round % 2 == 0 ? 0 : 64u << (rng() % 3);
    const std::size_t stride = std::vector<std::size_t>{16, 48, 56, 112, 20, 300}[static_cast<std::size_t>(round) % 6];
    const auto density = static_cast<unsigned>(rng() % 101);
    std::vector<bool> live(positions);
    for (std::size_t i = 0; i < positions; ++i) live[i] = rng() % 100 < density;
    MemoryMap map;
    map.begin(positions, page, stride);
    for (std::size_t first = 0; first < positions; first += 64) {
      std::uint64_t bits = 0;
      const auto valid = static_cast<unsigned>(std::min<std::size_t>(64, positions - first));
      for (unsigned i = 0; i < valid; ++i) bits |= live[first + i] ? std::uint64_t{1} << i : 0;
      map.add_word(first, bits, valid);
    }
    map.finish();
    // Reference.
    MapSummary ref;
    std::size_t last = 0, run = 0;
    for (std::size_t i = 0; i < positions; ++i) {
      if (live[i]) {
        ++ref.live;
        last = i + 1;
        if (run > 0) {
          ++ref.holes;
          ref.longest_hole = std::max(ref.longest_hole, run);
        }
        if (i == 0 || !live[i - 1]) ++ref.live_runs;
        run = 0;
      } else {
        ++run;
      }
    }
    std::vector<std::pair<std::size_t, std::size_t>> lines;  // (page, line) holding a live byte
    std::size_t spanned = 0;
    for (std::size_t i = 0; i < positions;) {  // page by page: first to last live line
      const std::size_t end = page == 0 ? positions : std::min(positions, (i / page + 1) * page);
      std::size_t lo = ~std::size_t{0}, hi = 0;
      for (std::size_t k = i; k < end; ++k) {
        if (!live[k]) continue;
        const std::size_t off = k - i;
        for (std::size_t l = off * stride / 64; l <= ((off + 1) * stride - 1) / 64; ++l) lines.emplace_back(i, l);
        lo = std::min(lo, off * stride / 64);
        hi = ((off + 1) * stride - 1) / 64;
      }
      if (lo != ~std::size_t{0}) spanned += hi - lo + 1;
      i = end;
    }
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    const MapSummary& s = map.summary();
    const std::string where = "round " + std::to_string(round);
    EXPECT_EQ(s.live, ref.live) << where;
    EXPECT_EQ(s.live_runs, ref.live_runs) << where;
    EXPECT_EQ(s.holes, ref.holes) << where;
    EXPECT_EQ(s.longest_hole, ref.longest_hole) << where;
    EXPECT_EQ(s.hole_slots, last - ref.live) << where;
    EXPECT_EQ(s.tail_slots, positions - last) << where;
    EXPECT_EQ(s.lines_live, lines.size()) << where << " stride " << stride;
    EXPECT_EQ(s.lines_spanned, spanned) << where << " stride " << stride;
  }
}

TEST(MemoryMap, StablePagesMarkPageEdges) {
  engine::GrowthPolicy policy;
  policy.storage = engine::StorageMode::stable;
  policy.page_slots = 256;
  policy.initial_capacity = 1024;
  engine::VectorPool<Shot> pool(policy);
  for (int i = 0; i < 600; ++i) pool.emplace(Shot{});
  MemoryMap map;
  map.build(pool, sizeof(Shot), 64);  // 16 slots a cell: 16 cells a page
  ASSERT_EQ(map.positions_per_cell(), 16u);
  for (std::size_t c = 0; c < map.cells().size(); ++c) {
    EXPECT_EQ(map.cells()[c].page_edge, c % 16 == 0) << "cell " << c;
  }
  EXPECT_EQ(map.summary().tail_slots, 1024u - 600u);
}

// How often the walk rank falls from one occupied cell to the next: 0 for a gradient.
std::size_t rank_descents(const MemoryMap& map) {
  std::size_t descents = 0;
  float previous = -1;
  for (const MapCell& c : map.cells()) {
    if (c.walk < 0) continue;
    if (c.walk < previous) ++descents;
    previous = c.walk;
  }
  return descents;
}

TEST(MemoryMap, WalkViewSlotOrderIsAGradientAndAShuffleIsNoise) {
  const auto pool = pool_with_holes(4096, {5, 6, 700, 2000});
  MemoryMap map;
  map.build(pool, sizeof(Shot), 256);
  std::vector<std::uint32_t> walk = pool.active_indices();
  map.build_walk_view(walk.data(), walk.size());
  EXPECT_EQ(rank_descents(map), 0u);
  EXPECT_FLOAT_EQ(map.cells().front().walk, 0.0f);
  EXPECT_NEAR(map.cells().back().walk, 1.0f, 0.01f);
  // Swap-pop after churn scrambles the list: the ranks jump about.
  std::mt19937 rng(7);
  std::shuffle(walk.begin(), walk.end(), rng);
  map.build_walk_view(walk.data(), walk.size());
  EXPECT_GT(rank_descents(map), 256u / 4) << "a shuffled walk must show as noise";
  for (const MapCell& c : map.cells()) EXPECT_GE(c.walk, 0.0f);
}

TEST(MemoryMap, HeapScatterBinsAddressesAndKeepsWalkRanks) {
  alignas(64) static Shot arena[1024];
  std::vector<const void*> objects;
  for (int i = 1023; i >= 0; i -= 2) objects.push_back(&arena[i]);  // every other one, walked downwards
  MemoryMap map;
  map.build_scatter(objects.data(), objects.size(), sizeof(Shot), 64);
  EXPECT_TRUE(map.scatter());
  EXPECT_EQ(map.summary().live, 512u);
  EXPECT_EQ(map.summary().span_bytes, 1022u * sizeof(Shot) + sizeof(Shot));
  std::size_t binned = 0;
  for (const MapCell& c : map.cells()) binned += c.live;
  EXPECT_EQ(binned, 512u);
  EXPECT_NEAR(map.cells().front().walk, 1.0f, 0.01f) << "the lowest address was walked last";
  EXPECT_NEAR(map.cells().back().walk, 0.0f, 0.05f);
  EXPECT_NEAR(map.summary().heap_density(sizeof(Shot)).value_or(-1), 512.0 * sizeof(Shot) / (1023.0 * sizeof(Shot)),
              1e-12);
  EXPECT_FALSE(map.summary().line_share()) << "a heap map has no slots: no lines crossed";
  map.build_scatter(nullptr, 0, sizeof(Shot));
  EXPECT_TRUE(map.cells().empty());
  EXPECT_FALSE(map.summary().heap_density(sizeof(Shot))) << "no objects: n/a, not 100 %";
}

// An empty pool has no live object to measure: its line share is n/a (the overlay's "n/a", the
// report's null), never the 100 % a division by zero once gave.
TEST(MemoryMap, EmptyPoolHasNoLineShare) {
  MemoryMap map;
  map.build(pool_with_holes(256, {}), sizeof(Shot));
  ASSERT_TRUE(map.summary().line_share());
  std::vector<std::size_t> all(256);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  map.build(pool_with_holes(256, all), sizeof(Shot));
  EXPECT_EQ(map.summary().live, 0u);
  EXPECT_EQ(map.summary().positions, 256u);
  EXPECT_FALSE(map.summary().line_share());
}

TEST(MemoryMap, ColoursTellHolesFromLiveAndSpareCapacity) {
  MapCell live{16, 16, false, false, 0.5f, 0};
  MapCell hole{0, 16, false, false, -1, 0};
  MapCell spare{0, 16, true, false, -1, 0};
  EXPECT_NE(occupancy_color(live), occupancy_color(hole));
  EXPECT_NE(occupancy_color(hole), occupancy_color(spare));
  EXPECT_NE(walk_color(live), walk_color(hole));
}

}  // namespace
}  // namespace game
