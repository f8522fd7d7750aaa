#pragma once
// game::PoolRateMeter: emplaces, releases and refused spawns per second of game time, per
// pool. Sampled once per simulation step with the pools' cumulative counters; a rate is
// the difference to the sample one second (60 steps) older. Game time rather than wall
// time, so a headless run and a window show the same rates for the same steps.
// Preallocated: sampling never allocates.
#include "sim/object_store.hpp"
#include "sim/scenario.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace game {

struct PoolRates {
  double emplaces_per_second = 0;
  double releases_per_second = 0;
  std::uint64_t refused_last_second = 0;  // spawns refused at max_capacity in the last second
  double stale_gets_per_second = 0;       // handle lookups refused (object died): homing shots losing targets
};

class PoolRateMeter {
 public:
  static constexpr std::size_t kStepsPerSecond = 60;

  // After each step: the step number (Simulation::frame()) and the pools' stats.
  void sample(std::uint64_t step, const std::array<StoreStats, kPoolCount>& pools) noexcept;
  PoolRates rates(PoolId pool) const noexcept;  // zeros until two samples exist
  void clear() noexcept { count_ = 0; }

 private:
  struct Sample {
    std::uint64_t step = 0;
    std::array<std::uint64_t, kPoolCount> spawns{}, releases{}, refused{}, stale{};
  };
  std::array<Sample, kStepsPerSecond + 1> ring_{};  // newest kStepsPerSecond + 1 samples
  std::size_t head_ = 0;                            // where the next sample goes
  std::size_t count_ = 0;
};

}  // namespace game
