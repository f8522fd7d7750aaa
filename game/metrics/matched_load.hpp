#pragma once
// game::MatchedLoad: heap against pooled at the same load. A heap span and a pooled span are
// only comparable where both simulate as many objects: the newest pooled span's p50 also holds
// idle and ramp-up frames, which made the panel say 2,444x after one hold-fire cycle. So the
// pooled frames counted are those whose live objects (FrameCounters::live_objects, sum over
// pools) lie within +-10 % of the heap frames' median, and no frame that grew or rebuilt a pool
// or switched pooling counts on either side (kFrameTag*: those are labelled, never pooled).
// One rule for the panel and the report's overlay.matched_load; the A/B compare, whose two runs
// are the same game step by step, pairs its steps (matched_load_paired) under the same limits.
#include "sim/simulation.hpp"

#include <engine/frame_stats.hpp>

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace game {

struct MatchedLoadRule {
  double tolerance = 0.10;         // pooled frames within +-10 % of the heap median's live count
  std::uint64_t min_live = 20000;  // below this median there is no load to compare
  std::size_t min_frames = 30;     // on each side
};

struct MatchedLoad {
  double heap_sim_p50 = 0, pooled_sim_p50 = 0;  // ms, nearest rank, over the matched frames
  bool has_ratio = false;                       // false: not enough load (ratio is 0)
  double ratio = 0;                             // heap_sim_p50 / pooled_sim_p50
  std::uint64_t live_objects = 0;               // the heap frames' median live count
  std::size_t heap_frames = 0, pooled_frames = 0;
};

// Scratch the matching sorts in; kept by the caller so a warm call allocates nothing.
struct MatchedLoadScratch {
  std::vector<double> heap_ms, pooled_ms, live;
};

// Live objects, sum over pools (FrameCounters::live_objects; saturates at 2^32-1).
std::uint32_t live_objects(const SimStats& stats) noexcept;
// Bytes of the live objects, sum over pools: what a step's walk touches.
std::size_t bytes_live(const SimStats& stats) noexcept;

// Frames that count as heap (pooling off, no switch, no growth or rebuild) and as pooled.
bool matched_heap_frame(std::uint8_t tag) noexcept;
bool matched_pooled_frame(std::uint8_t tag) noexcept;

// One session: heap and pooled frames from the same FrameStats, told apart by their tags.
MatchedLoad matched_load(const engine::FrameStats& frames, MatchedLoadScratch& scratch,
                         const MatchedLoadRule& rule = {});
// Two series: heap frames from `heap`, pooled frames from `pooled`.
MatchedLoad matched_load(const engine::FrameStats& heap, const engine::FrameStats& pooled, MatchedLoadScratch& scratch,
                         const MatchedLoadRule& rule = {});
// The A/B compare's two runs are the same game step by step, so step i of one has step i of
// the other at the same load: the steps paired are those where both count (no switch, growth
// or rebuild), the heap step holds at least rule.min_live objects and the pooled step as many
// within the tolerance. The ramp of a hold-fire run counts from where it is a load, which the
// median of all its steps (mostly the ramp's foot) would never reach in ten seconds.
MatchedLoad matched_load_paired(const engine::FrameStats& heap, const engine::FrameStats& pooled,
                                MatchedLoadScratch& scratch, const MatchedLoadRule& rule = {});

// "heap 3.4x slower at 300k objects (matched load)" or "hold fire to compare".
void matched_load_line(const MatchedLoad& m, char* out, std::size_t size) noexcept;

// {heap_sim_p50, pooled_sim_p50, ratio (null: not enough load), live_objects, heap_frames, pooled_frames}
nlohmann::json matched_load_json(const MatchedLoad& m);

}  // namespace game
