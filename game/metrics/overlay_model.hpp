#pragma once
// game::OverlayModel: everything the debug overlay shows, as plain values. It is filled
// from the simulation, the runtime's engine::FrameStats and the PoolRateMeter; the ImGui
// panel (overlay_panel.hpp) only draws it, and the report writes it (overlay_json), so a
// number on screen can be checked against the report of a headless run.
//
// Frame times: the window is the newest frames covering `window_seconds`, of wall time,
// or of game time in deterministic runs (each frame then counts as one fixed step), and
// the percentiles are over exactly the frames drawn. "Total" is the CPU work of a frame,
// simulation + rendering (vsync waits excluded), which is what the 16.7 ms budget is for.
#include "metrics/capacity_advisor.hpp"
#include "metrics/frame_log.hpp"
#include "metrics/matched_load.hpp"
#include "metrics/overlay_rates.hpp"
#include "sim/simulation.hpp"

#include <engine/frame_stats.hpp>

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace game {

inline constexpr double kFrameBudgetMs = 1000.0 / 60.0;
inline constexpr double kMinWindowSeconds = 2, kMaxWindowSeconds = 20, kDefaultWindowSeconds = 10;

struct OverlayViewOptions {
  double window_seconds = kDefaultWindowSeconds;  // clamped to 2..20
  double budget_ms = kFrameBudgetMs;              // the line on the graph; frames above it are marked
  double fixed_frame_seconds = 0;                 // > 0: every frame counts as this long (deterministic)
  AdvisorOptions advisor;
};

struct PoolView {
  PoolId id = PoolId::bullets;
  std::size_t live = 0, free = 0, capacity = 0, peak_live = 0, bytes_held = 0;
  std::size_t initial_capacity = 0, growth_step = 0, max_capacity = 0;  // the policy in force
  double fill = 0;                                                      // live / capacity, 0..1
  PoolRates rates;                                                      // per second of game time
  std::uint64_t spawns = 0, releases = 0, growth_events = 0, refused_spawns = 0;
  std::uint64_t stale_gets = 0;   // handle lookups refused, this run (enemies: homing shots' dead targets)
  bool pooled = true;             // false: heap mode (one new per object)
  double walk_ns_per_object = 0;  // the step's update walk per object, smoothed (StoreStats)
  bool at_max_capacity = false;   // live == max_capacity: the next spawn is refused
  bool refusing() const noexcept { return at_max_capacity || rates.refused_last_second > 0; }
};

struct FrameRow {           // one rendered (or headless) frame
  std::uint64_t frame = 0;  // engine::FrameStats frame index
  float sim_ms = 0, render_ms = 0;
  std::uint64_t allocations = 0;  // operator new calls in the frame's steps
  std::uint32_t draw_calls = 0, sprites = 0;
  std::uint8_t grew = 0;     // bit i set: pool i grew in this frame
  bool over_budget = false;  // sim + render > budget
  bool heap = false;         // pooling was off (the frame's tag has kFrameTagHeap)
  float total_ms() const noexcept { return sim_ms + render_ms; }
};

// A settings switch in the window: a labelled vertical line on the graph, at its frame.
struct SwitchMark {
  std::uint64_t frame = 0;  // engine::FrameStats frame index: the frame the switch took effect in
  SwitchKind kind = SwitchKind::storage;
  char label[engine::FrameEvent::label_capacity + 1] = {};  // what it switched to: "packed", "slot-order list"
};

struct FrameWindow {
  double seconds = 0;          // asked for
  double covered_seconds = 0;  // what the frames in it add up to
  double budget_ms = kFrameBudgetMs;
  std::vector<FrameRow> rows;        // oldest first
  std::vector<SwitchMark> switches;  // pooling, storage and walk switches among the rows, oldest first
  Percentiles sim, render, total;    // nearest rank, over rows (engine::FrameStats' summaries)
  std::size_t over_budget = 0;       // rows over the budget
  std::size_t growth_frames = 0;     // rows in which some pool grew
  std::size_t heap_frames = 0;       // rows with pooling off (the graph shades them)
  std::uint64_t allocations_max = 0, allocations_total = 0;
  std::uint32_t draw_calls_max = 0, sprites_max = 0;
};

struct PoolingSpan {                              // a run of consecutive frames with pooling on, or off
  bool found = false;                             // false: no such span among the recorded frames
  std::uint64_t first_frame = 0, last_frame = 0;  // engine::FrameStats frame indices, inclusive
  std::size_t frames = 0;                         // may be cut at the oldest end of the FrameStats ring
  Percentiles sim;                                // simulation ms per frame over the span, nearest rank
};

struct PoolingSpans {  // before and after: the newest span of each kind
  PoolingSpan pooled, heap;
  Percentiles ratio;  // heap / pooled, field by field; 0 unless both exist
};

struct OverlayModel {
  std::uint64_t sim_step = 0;  // simulated steps so far
  bool pooling = true;
  engine::StorageMode storage = engine::StorageMode::contiguous;
  WalkMode walk = WalkMode::slot_order;  // how pooled stores walk (bitmap, swap-pop or slot-order list)
  std::uint32_t threads = 1;             // the update phase's threads in force
  bool threads_auto = false;             // chosen by measurement (--threads auto): SimStats::threads_ratio
  double threads_ratio = 0;              // many threads' step time over one's, last measured (0: not yet)
  std::uint32_t threads_measured = 1;    // how many "many" is
  double update_ms = 0, release_ms = 0, collision_ms = 0;  // the step's phases (SimStats), smoothed
  std::array<PoolView, kPoolCount> pools{};
  std::size_t bytes_held_total = 0;
  std::vector<GrowthRecord> growth_log;  // oldest first: the simulation's records (sim/growth_log.hpp), as they are
  std::uint64_t growth_events = 0;       // all pools, including growths past the log's capacity
  std::uint64_t rebuilds = 0;            // pools rebuilt by a pooling switch (listed, not counted above)
  std::uint64_t growth_log_dropped = 0;
  FrameWindow window;
  PoolingSpans spans;                  // over every recorded frame (FrameStats' ring, up to
                                       // 2400), so a heap span outlives the graph's window
  MatchedLoad matched;                 // heap vs pooled at the same live count, same frames as spans
  MatchedLoadScratch matched_scratch;  // its sort buffers (kept: no allocation once warm)
  // The last matched-load ratio measured, kept until a new one replaces it: a game over, a
  // storage change or the frames rolling out of the ring do not take it off the headline.
  MatchedLoad matched_kept;           // has_ratio false: none measured yet
  double matched_kept_at = 0;         // clock_seconds when it was measured last
  double clock_seconds = 0;           // the model's clock: wall time, or game time when deterministic
  std::uint64_t clock_frame = ~0ull;  // the FrameStats frame the clock last advanced for
  std::size_t bytes_live_total = 0;   // the live objects' bytes, sum over pools: a step's working set
  FrameRow latest;                    // the newest committed frame
  CapacityAdvices advice{};
  AdvisorOptions advisor_options;
};

struct OverlaySources {
  const Simulation& sim;
  const engine::FrameStats& frames;
  const PoolRateMeter& rates;
};

// Refills `model` (its vectors keep their capacity: no allocation once warm).
void update_overlay_model(OverlayModel& model, const OverlaySources& sources, const OverlayViewOptions& view);
OverlayModel make_overlay_model(const OverlaySources& sources, const OverlayViewOptions& view = {});

// The panel's headline: "pooling OFF: " while pooling is off, then the matched-load line of
// now, or of the last ratio measured with how long ago ("heap 3.4x slower at 300k objects
// (matched load, 12 s ago)"), or "hold fire to compare" when none was ever measured.
void headline_line(const OverlayModel& model, char* out, std::size_t size) noexcept;

// Which frames of `frames` fall in the window (the newest `count`); pure, for tests.
std::size_t window_frame_count(const engine::FrameStats& frames, double window_seconds,
                               double fixed_frame_seconds) noexcept;

// The newest pooled and heap spans among `frames` (by their tags) with their simulation
// percentiles (FrameStats' own summaries: no allocation per call).
PoolingSpans pooling_spans(const engine::FrameStats& frames);

// "bullets: at max capacity 4096, spawns refused: 1234 - your guns stop firing" into out;
// returns false (and writes "") when the pool is not refusing spawns.
bool refusal_message(const PoolView& pool, char* out, std::size_t size) noexcept;

// The model as the report's "overlay" section (the frame series go to CSV, not JSON).
nlohmann::json overlay_json(const OverlayModel& model);

}  // namespace game
