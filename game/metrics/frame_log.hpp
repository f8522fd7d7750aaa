#pragma once
// game::FrameLog: per-frame timings and allocation counts for the report and --frame-csv. The
// frames themselves go into an engine::FrameStats (the one frame recorder, reserved up front:
// recording never allocates), which also gives the percentiles; FrameLog adds the counts the
// report needs over every frame (allocations, growths, the kinds of frame).
//
// Every frame after the warm-up (warmup_frames) is one kind (FrameKind, from its tag), and the
// report gives each kind its own worst frame: heap_allocs.per_frame_max_steady is the worst
// POOLED frame in which no pool grew or was rebuilt, the figure pooling promises is 0. Heap
// frames (pooling off) allocate per object by design and are reported beside it
// (per_frame_max_heap), never mixed into it.
#include "sim/settings.hpp"

#include <engine/frame_stats.hpp>

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace game {

struct SimStats;

// engine::FrameCounters::tag as the game sets it: bit flags, so a frame that is never tagged
// (0) reads as pooled with no growth, never as a false heap span.
inline constexpr std::uint8_t kFrameTagHeap = 1;         // pooling was off for (some of) the frame's steps
inline constexpr std::uint8_t kFrameTagStorageGrew = 2;  // a store grew in the frame (FrameLog)
inline constexpr std::uint8_t kFrameTagPoolRebuilt = 4;  // a pool was rebuilt: pooling on or off, storage changed
inline constexpr std::uint8_t kFrameTagSwitched = 8;     // pooling was switched on or off: every object migrated

// The tag of one step, from the applied pooling before and after it and what its stores did.
std::uint8_t step_frame_tag(bool pooled_before, bool pooled_after, bool grew, bool rebuilt) noexcept;
// The same from the step's own SimStats (pooling, switched, grew, rebuilt): what the step loop
// and the overlay's recorder both tag a step with.
std::uint8_t step_frame_tag(const SimStats& after) noexcept;

// What a frame after the warm-up was, for the report's allocation figures (first match wins).
enum class FrameKind : std::uint8_t {
  warmup,          // one of the first warmup_frames
  pooling_switch,  // pooling switched on or off: every live object moved between pool and heap
  heap,            // pooling off: one new/delete per object, by design
  growth,          // pooled, and a pool (or list) grew or was rebuilt
  steady,          // pooled, nothing grew or was rebuilt: allocates nothing
};
inline constexpr std::size_t kFrameKindCount = 5;
// Frame `frame` (1-based) with `tag`, in a log whose first warmup_frames frames are warm-up.
FrameKind frame_kind(std::uint64_t frame, std::uint64_t warmup_frames, std::uint8_t tag) noexcept;
const char* frame_kind_name(FrameKind kind) noexcept;  // "warmup", "switch", "heap", "growth", "steady"

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;
};
// {"p50", "p99", "max"}: how the report, its phases and the overlay's export write a timing.
nlohmann::json percentiles_json(const Percentiles& p);

// The game's name for engine::FrameStats' summaries (nearest rank, computed there).
inline Percentiles to_percentiles(const engine::TimingSummary& s) noexcept { return {s.p50_ms, s.p99_ms, s.max_ms}; }
// Nearest-rank percentiles of a series kept outside a FrameStats (engine::summarize_times;
// sorts `values` in place; all 0 when empty).
inline Percentiles percentiles_of(std::vector<double>& values) noexcept {
  return to_percentiles(engine::summarize_times(values.data(), values.size()));
}

// A settings switch on the frame it took effect in (SimStats::switched, and what the step
// applied): the overlay draws it on its graph, --frame-csv names it in its `switch` column.
struct FrameSwitch {
  std::uint8_t kinds = 0;  // switch_bit()s (sim/settings.hpp); 0: nothing switched in the frame
  bool pooling = true;     // what it switched to
  engine::StorageMode storage = engine::StorageMode::contiguous;
  WalkMode walk = WalkMode::slot_order;

  bool any() const noexcept { return kinds != 0; }
  bool has(SwitchKind kind) const noexcept { return (kinds & switch_bit(kind)) != 0; }
  // A step's switch: its SimStats::switched over the settings it applied.
  static FrameSwitch of(std::uint8_t kinds, const Settings& applied) noexcept {
    return {kinds, applied.pooling, applied.storage, applied.walk};
  }
  // The frame's switch after one more step: what either switched, as the later one left it.
  FrameSwitch then(const FrameSwitch& later) const noexcept {
    if (!later.any()) return *this;
    FrameSwitch s = later;
    s.kinds = static_cast<std::uint8_t>(kinds | later.kinds);
    return s;
  }
  const char* label(SwitchKind kind) const noexcept {  // as switch_label() names it
    Settings s;
    s.pooling = pooling;
    s.storage = storage;
    s.walk = walk;
    return switch_label(kind, s);
  }
};
// Its names joined by '|' in SwitchKind order ("packed|slot-order list"); "" when none.
std::string switch_names(const FrameSwitch& s);

// FrameEvent::kind of a switch in an engine::FrameStats: kSwitchEventKind + SwitchKind, its
// label what it switched to, its value the new mode. Below it: the pool that grew (its PoolId).
inline constexpr std::uint32_t kSwitchEventKind = 16;
// One event per kind in `s`, on the frame `frames` is recording.
void record_switch_events(const FrameSwitch& s, engine::FrameStats& frames) noexcept;
// The switch an event records (kind), if it is one.
bool switch_event(const engine::FrameEvent& event, SwitchKind& kind) noexcept;

// One recorded frame, for the per-frame series (`poolshot --frame-csv FILE`, scripts/bench).
struct FrameRecord {
  std::uint64_t frame = 0;  // 1-based
  float sim_ms = 0, render_ms = 0;
  std::uint32_t heap_allocs = 0;  // operator new calls in the frame (saturates at 2^32-1)
  bool storage_grew = false;      // a pool (or heap-mode pointer array) grew in the frame
  FrameSwitch switched;           // pooling, storage or walk switched in the frame
};

// Frames of one FrameKind and their worst allocation count.
struct FrameKindAllocs {
  std::uint64_t frames = 0;
  std::int64_t per_frame_max = -1;  // -1: no frame of this kind
};

struct FrameSummary {
  std::uint64_t frames = 0;
  std::uint64_t timed_frames = 0;  // frames whose times the percentiles cover (the newest)
  Percentiles sim_ms, render_ms, total_ms;
  std::uint64_t warmup_frames = 0;
  std::uint64_t heap_allocs_total = 0;                   // operator new calls inside recorded frames
  std::uint64_t heap_allocs_per_frame_max = 0;           // worst frame, warm-up and growth included
  std::array<FrameKindAllocs, kFrameKindCount> kinds{};  // every frame, by FrameKind (of())
  std::uint64_t last_growth_frame = 0;                   // 0: no growth recorded
  std::vector<FrameRecord> series;                       // the timed frames, oldest first

  // of(FrameKind::steady).per_frame_max is the report's heap_allocs.per_frame_max_steady.
  const FrameKindAllocs& of(FrameKind kind) const noexcept { return kinds[static_cast<std::size_t>(kind)]; }
};

// Writes `series` as CSV (header: frame,sim_ms,render_ms,heap_allocs,storage_grew,switch; switch
// names what switched in the frame, switch_names(), empty when nothing did).
// On failure returns false and sets `error` to the reason.
bool write_frame_csv(const std::string& path, const std::vector<FrameRecord>& series, std::string& error);

class FrameLog {
 public:
  // Switches kept for the series (events, a ring): a script switching once a second fills it in 17 min.
  static constexpr std::size_t kSwitchEvents = 1024;

  // Keeps the newest `capacity` frame times (a ring); counts cover every frame.
  FrameLog(std::size_t capacity, std::uint64_t warmup_frames);

  // tag: kFrameTag* bits (step_frame_tag, or-ed over a frame's steps); switched: what the
  // frame's steps switched (pooling, storage, walk), kept as events for --frame-csv; live:
  // objects alive at the frame's end, sum over pools (the matched-load comparison).
  void record(double sim_ms, double render_ms, std::uint64_t allocs, std::uint8_t tag, const FrameSwitch& switched = {},
              std::uint32_t live = 0) noexcept;
  // Allocates (the series): call at the end, not per frame. with_series false: no series.
  FrameSummary summary(bool with_series = true) const;
  // The recorded frames, oldest first (sample(i).ms, counters.allocations, tag), for a live view.
  const engine::FrameStats& frames() const noexcept { return frames_; }

 private:
  engine::FrameStats frames_;
  FrameSummary counts_;
};

}  // namespace game
