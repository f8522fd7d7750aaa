#include <engine/fixed_step.hpp>

#include <algorithm>

namespace engine {

FixedStepClock::FixedStepClock(FixedStepConfig config) : config_(config) {
  // A zero or negative step would loop forever in advance(); fall back to the default.
  if (!(config_.step_seconds > 0.0)) config_.step_seconds = FixedStepConfig{}.step_seconds;
  config_.max_frame_seconds = std::max(config_.max_frame_seconds, config_.step_seconds);
}

int FixedStepClock::advance(double elapsed_seconds) {
  if (paused_) {
    const int steps = step_requested_ ? 1 : 0;
    step_requested_ = false;
    total_steps_ += static_cast<std::uint64_t>(steps);
    return steps;
  }
  if (config_.lockstep) {
    ++total_steps_;
    return 1;
  }
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
  total_steps_ += static_cast<std::uint64_t>(steps);
  return steps;
}

double FixedStepClock::interpolation() const noexcept {
  if (paused_ || config_.lockstep) return 1.0;
  return accumulator_ / config_.step_seconds;
}

void FixedStepClock::set_paused(bool paused) noexcept {
  paused_ = paused;
  if (!paused_) step_requested_ = false;
}

void FixedStepClock::request_single_step() noexcept {
  if (paused_) step_requested_ = true;
}

void FixedStepClock::reset() noexcept {
  accumulator_ = 0.0;
  dropped_ = 0.0;
  total_steps_ = 0;
  step_requested_ = false;
}

}  // namespace engine
