#pragma once
// game::FrameLog: per-frame timings and allocation counts for the report and --frame-csv. The
// frames themselves go into an engine::FrameStats (the one frame recorder, reserved up front:
// recording never allocates), which also gives the percentiles; FrameLog adds the counts the
// report needs over every frame (allocations, growths, the steady state).
//
// Steady state, as the report uses it: the frames after the warm-up (warmup_frames) that
// also come after the last frame in which any store grew (a pool growth, or a pointer-array
// growth in heap mode). heap_allocs.per_frame_max_steady is the worst such frame.
#include <engine/frame_stats.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace game {

// engine::FrameCounters::tag as the game sets it: bit flags, so a frame that is never tagged
// (0) reads as pooled with no growth, never as a false heap span.
inline constexpr std::uint8_t kFrameTagHeap = 1;         // pooling was off for the frame's steps
inline constexpr std::uint8_t kFrameTagStorageGrew = 2;  // a store grew in the frame (FrameLog)

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;
};

// The game's name for engine::FrameStats' summaries (nearest rank, computed there).
inline Percentiles to_percentiles(const engine::TimingSummary& s) noexcept { return {s.p50_ms, s.p99_ms, s.max_ms}; }
// Nearest-rank percentiles of a series kept outside a FrameStats (engine::summarize_times;
// sorts `values` in place; all 0 when empty).
inline Percentiles percentiles_of(std::vector<double>& values) noexcept {
  return to_percentiles(engine::summarize_times(values.data(), values.size()));
}

// One recorded frame, for the per-frame series (`poolshot --frame-csv FILE`, scripts/bench).
struct FrameRecord {
  std::uint64_t frame = 0;  // 1-based
  float sim_ms = 0, render_ms = 0;
  std::uint32_t heap_allocs = 0;  // operator new calls in the frame (saturates at 2^32-1)
  bool storage_grew = false;      // a pool (or heap-mode pointer array) grew in the frame
};

struct FrameSummary {
  std::uint64_t frames = 0;
  std::uint64_t timed_frames = 0;  // frames whose times the percentiles cover (the newest)
  Percentiles sim_ms, render_ms, total_ms;
  std::uint64_t warmup_frames = 0;
  std::uint64_t heap_allocs_total = 0;                 // operator new calls inside recorded frames
  std::uint64_t heap_allocs_per_frame_max = 0;         // worst frame, warm-up and growth included
  std::int64_t heap_allocs_per_frame_max_steady = -1;  // worst steady frame; -1: none steady
  std::uint64_t steady_from_frame = 0;                 // first steady frame (1-based)
  std::uint64_t steady_frames = 0;
  std::uint64_t last_growth_frame = 0;  // 0: no growth recorded
  std::vector<FrameRecord> series;      // the timed frames, oldest first
};

// Writes `series` as CSV (header: frame,sim_ms,render_ms,heap_allocs,storage_grew).
// On failure returns false and sets `error` to the reason.
bool write_frame_csv(const std::string& path, const std::vector<FrameRecord>& series, std::string& error);

class FrameLog {
 public:
  // Keeps the newest `capacity` frame times (a ring); counts cover every frame.
  FrameLog(std::size_t capacity, std::uint64_t warmup_frames);

  void record(double sim_ms, double render_ms, std::uint64_t allocs, bool storage_grew) noexcept;
  // Allocates (the series): call at the end, not per frame. with_series false: no series.
  FrameSummary summary(bool with_series = true) const;
  // The recorded frames, oldest first (sample(i).ms, counters.allocations, tag), for a live view.
  const engine::FrameStats& frames() const noexcept { return frames_; }

 private:
  engine::FrameStats frames_;
  FrameSummary counts_;
  std::uint64_t steady_max_ = 0;
};

}  // namespace game
