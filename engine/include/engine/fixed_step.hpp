#pragma once
// engine::FixedStepClock: turns variable frame times into a whole number of fixed
// simulation steps plus an interpolation factor for rendering. Also owns pause and
// single-step, so every caller (window, offscreen, deterministic runs) gets the same rules.
#include <cstdint>

namespace engine {

struct FixedStepConfig {
  double step_seconds = 1.0 / 60.0;  // simulation dt; gameplay never sees another dt
  double max_frame_seconds = 0.25;   // a stall (debugger, window drag) is clamped to this,
                                     // so the sim can never fall into a catch-up spiral
  bool lockstep = false;             // every advance() is exactly one step whatever the wall
                                     // time: reproducible runs, screenshots, headless
};

class FixedStepClock {
 public:
  explicit FixedStepClock(FixedStepConfig config = {});

  // Adds one frame's elapsed wall time; returns how many fixed steps to simulate now.
  // Paused: wall time is discarded and the result is 1 if a single step was requested, else 0.
  // Lockstep: returns 1 (when not paused) and ignores elapsed_seconds.
  int advance(double elapsed_seconds);
  // Where to draw between the previous (0) and the latest (1) simulation state.
  // 1 while paused and in lockstep: nothing is between states then, show the latest.
  double interpolation() const noexcept;

  void set_paused(bool paused) noexcept;  // pausing keeps the accumulator for the resume
  void toggle_pause() noexcept { set_paused(!paused_); }
  bool paused() const noexcept { return paused_; }
  // While paused, makes the next advance() return exactly 1. Ignored when running.
  void request_single_step() noexcept;
  bool single_step_pending() const noexcept { return step_requested_; }

  void reset() noexcept;                                               // accumulator, counters; pause state stays
  std::uint64_t total_steps() const noexcept { return total_steps_; }  // steps returned so far
  // Time that was dropped by the clamp so far (seconds), for the stats panel.
  double dropped_seconds() const noexcept { return dropped_; }
  const FixedStepConfig& config() const noexcept { return config_; }

 private:
  FixedStepConfig config_;
  double accumulator_ = 0.0;
  double dropped_ = 0.0;
  std::uint64_t total_steps_ = 0;
  bool paused_ = false;
  bool step_requested_ = false;
};

}  // namespace engine
