#pragma once
// game::FrameLog: per-frame timings and allocation counts, kept in a buffer reserved up front
// (recording never allocates), summarised as percentiles at the end of a run.
//
// Steady state, as the report uses it: the frames after the warm-up (warmup_frames) that
// also come after the last frame in which any store grew (a pool growth, or a pointer-array
// growth in heap mode). heap_allocs.per_frame_max_steady is the worst such frame.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace game {

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;
};

// Nearest-rank percentiles of `values` (all 0 when empty); sorts its copy, so not per frame.
Percentiles percentiles(std::vector<float> values);

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
  FrameSummary summary() const;  // allocates (sorts copies): call at the end, not per frame

 private:
  struct Sample {
    float sim_ms, render_ms;
    std::uint32_t allocs;
    bool grew;
  };
  std::vector<Sample> ring_;
  std::size_t next_ = 0;
  FrameSummary counts_;
  std::uint64_t steady_max_ = 0;
};

}  // namespace game
