#include <engine/fixed_step.hpp>

#include <algorithm>

namespace engine {

FixedStepClock::FixedStepClock(FixedStepConfig config) : config_(config) {}

int FixedStepClock::advance(double elapsed_seconds) {
  double elapsed = std::max(0.0, elapsed_seconds);
  if (elapsed > config_.max_frame_seconds) {
    dropped_ += elapsed - config_.max_frame_seconds;
    elapsed = config_.max_frame_seconds;
  }
  accumulator_ += elapsed;
  int steps = 0;
  while (accumulator_ >= config_.step_seconds) {
    accumulator_ -= config_.step_seconds;
    ++steps;
  }
  return steps;
}

double FixedStepClock::interpolation() const noexcept {
  return accumulator_ / config_.step_seconds;
}

}  // namespace engine
