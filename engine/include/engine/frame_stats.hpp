#pragma once
// engine::FrameStats: raw per-frame times and counters over a sliding window, exact
// percentiles, and the game's events stamped with the frame they happened on.
// Raw samples, never a moving average: a single 40 ms hitch must show up in max and p99,
// not be smeared across the next second. Everything is reserved by the constructor (and
// set_window); recording a frame, an event or asking for a summary never allocates. The ring
// is reserved, not filled, so a big window costs memory only as frames arrive.
// Not thread-safe: one thread records and reads.
//
// The one frame recorder: the runtime's frames, the game's headless FrameLog, each run of
// the A/B compare and the overlay's window and spans all keep their frames in a FrameStats,
// and every percentile they show comes from summarize_times() below.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace engine {

enum class FrameTimer : std::uint8_t {
  simulation = 0,  // all fixed steps of the frame together
  render = 1,      // building + submitting sprites and the overlay (CPU side, before the swap)
  frame = 2,       // wall time of the whole frame: events, steps, render and the swap (vsync wait)
};
inline constexpr std::size_t frame_timer_count = 3;

struct FrameCounters {
  std::uint32_t sim_steps = 0;     // fixed steps run this frame (0 while paused)
  std::uint32_t draw_calls = 0;    // sprite draw calls (the overlay is not counted)
  std::uint32_t sprites = 0;       // sprites submitted
  std::uint8_t tag = 0;            // the game's own per-frame code (e.g. a mode it ran in);
                                   // the engine stores it and never reads it
  std::uint64_t allocations = 0;   // heap allocations this frame, as counted by the game
  std::uint32_t live_objects = 0;  // objects alive at the frame's end, as counted by the game (0: not counted)
};

struct FrameSample {
  std::uint64_t frame = 0;                     // frame index (0 = first frame)
  std::array<double, frame_timer_count> ms{};  // raw times, milliseconds, by FrameTimer
  FrameCounters counters;
};

struct TimingSummary {  // nearest-rank percentiles over the window
  double p50_ms = 0.0;
  double p99_ms = 0.0;
  double max_ms = 0.0;
  std::size_t samples = 0;  // frames the figures cover (0: all figures are 0)
};

struct FrameEvent {
  static constexpr std::size_t label_capacity = 31;
  std::uint64_t frame = 0;              // frame index the event was recorded on
  std::uint32_t kind = 0;               // the game's own code (e.g. an enum value)
  char label[label_capacity + 1] = {};  // copied and truncated, always NUL-terminated
  double value = 0.0;                   // e.g. the new capacity of a pool that grew
};

class FrameStats {
 public:
  // window_frames: how many frames the summaries cover (>= 1). event_capacity: how many
  // events are kept; older ones are overwritten (counted in events_overwritten()).
  explicit FrameStats(std::size_t window_frames = 600, std::size_t event_capacity = 256);

  // Per frame: begin_frame(), any number of add_time / set_* / record_event, end_frame().
  // There is always one open sample; begin_frame() zeroes it, end_frame() commits it.
  // Events go straight into their ring, stamped with frame_index().
  void begin_frame() noexcept;                          // opens frame frame_index()
  void add_time(FrameTimer timer, double ms) noexcept;  // accumulates (several steps)
  void set_time(FrameTimer timer, double ms) noexcept;
  void add_sim_steps(std::uint32_t steps) noexcept { open_.counters.sim_steps += steps; }
  void set_draw_stats(std::uint32_t draw_calls, std::uint32_t sprites) noexcept;
  void set_allocations(std::uint64_t allocations) noexcept { open_.counters.allocations = allocations; }
  void set_tag(std::uint8_t tag) noexcept { open_.counters.tag = tag; }  // see FrameCounters::tag
  void set_live_objects(std::uint32_t live) noexcept { open_.counters.live_objects = live; }
  void record_event(std::uint32_t kind, std::string_view label, double value) noexcept;
  void end_frame() noexcept;  // commits; frame_index() + 1

  std::uint64_t frame_index() const noexcept { return next_frame_; }  // frame being recorded
  const FrameSample& open_frame() const noexcept { return open_; }    // the frame in progress

  // The committed window, oldest first: sample(0) is the oldest, sample(size()-1) the latest.
  std::size_t window() const noexcept { return window_; }
  std::size_t size() const noexcept { return count_; }
  const FrameSample& sample(std::size_t age_index) const noexcept;
  const FrameSample* latest() const noexcept;  // nullptr before the first end_frame

  TimingSummary summary(FrameTimer timer) const noexcept;  // exact, over the window
  // Over `count` committed frames from age `first` (clamped to what is there).
  TimingSummary summary(FrameTimer timer, std::size_t first, std::size_t count) const noexcept;
  // Simulation + render per frame (the CPU work a frame's budget is for), over the same range.
  TimingSummary cpu_summary(std::size_t first = 0, std::size_t count = SIZE_MAX) const noexcept;
  // Copies one timer's series (oldest first) into out, for a plot; returns how many.
  std::size_t copy_series(FrameTimer timer, float* out, std::size_t capacity) const noexcept;

  // Events, oldest first.
  std::size_t event_count() const noexcept { return event_count_; }
  const FrameEvent& event(std::size_t age_index) const noexcept;
  std::uint64_t events_recorded() const noexcept { return events_recorded_; }
  std::uint64_t events_overwritten() const noexcept;

  void set_window(std::size_t window_frames);  // reserves and clears: not for every frame
  void clear() noexcept;                       // drops samples and events, keeps capacities

 private:
  template <class Value>
  TimingSummary summarize(std::size_t first, std::size_t count, Value value) const noexcept;

  std::vector<FrameSample> samples_;  // ring: fills up to window_ (reserved), then wraps
  std::size_t window_ = 1;
  std::size_t head_ = 0;  // where the next sample goes once the ring is full
  std::size_t count_ = 0;
  mutable std::vector<double> scratch_;  // sorted copy for percentiles, reserved to window_
  std::vector<FrameEvent> events_;       // ring
  std::size_t event_head_ = 0;
  std::size_t event_count_ = 0;
  std::uint64_t events_recorded_ = 0;
  FrameSample open_;
  std::uint64_t next_frame_ = 0;
};

// Nearest-rank percentile of an ascending series: the smallest value with at least
// percent% of the samples at or below it. percent in (0, 100]; 0 for an empty series.
double nearest_rank_percentile(const double* sorted, std::size_t count, double percent) noexcept;

// p50, p99 and max of `values` by nearest rank; sorts them in place. The one place a frame
// time percentile is computed: FrameStats' summaries call it, and so does any series kept
// elsewhere (the report's phases).
TimingSummary summarize_times(double* values, std::size_t count) noexcept;

}  // namespace engine
