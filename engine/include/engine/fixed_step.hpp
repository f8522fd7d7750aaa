#pragma once
// engine::FixedStepClock: turns variable frame times into a whole number of fixed
// simulation steps plus an interpolation factor for rendering.
#include <cstdint>

namespace engine {

struct FixedStepConfig {
  double step_seconds = 1.0 / 60.0;  // simulation dt; gameplay never sees another dt
  double max_frame_seconds = 0.25;   // a stall (debugger, window drag) is clamped to this,
                                     // so the sim can never fall into a catch-up spiral
};

class FixedStepClock {
 public:
  explicit FixedStepClock(FixedStepConfig config = {});

  // Adds one frame's elapsed wall time; returns how many fixed steps to simulate now.
  int advance(double elapsed_seconds);
  // Fraction of a step left in the accumulator: 0 = at the last state, towards 1 = next.
  double interpolation() const noexcept;
  // Time that was dropped by the clamp so far (seconds), for the stats panel.
  double dropped_seconds() const noexcept { return dropped_; }
  const FixedStepConfig& config() const noexcept { return config_; }

 private:
  FixedStepConfig config_;
  double accumulator_ = 0.0;
  double dropped_ = 0.0;
};

}  // namespace engine
