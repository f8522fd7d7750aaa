#pragma once
// game::StepObserver: how the recorders hear about steps. The one step loop (app/step_loop.hpp)
// drives; metrics records: the overlay's recorder, the phase recorder and the soak's watch
// implement this interface, and the loop calls them outside the timed part of each step.
#include "sim/simulation.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace game {

inline constexpr std::uint64_t kDefaultWarmupFrames = 120;            // 2 s of game: not in the steady figures
inline constexpr std::size_t kMaxTimedFrames = std::size_t{1} << 20;  // a run's FrameLog holds at most this many

// Told about every step of a StepLoop, outside the timed part: the overlay's recorder
// (overlay_recorder.hpp) listens this way, so a headless report holds what the overlay shows.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void before_step() = 0;
  virtual void after_step(const Simulation& sim, const SimStats& after, double sim_ms, std::uint64_t allocations) = 0;
};

// Tells each of up to four observers in turn (nullptr entries are skipped): the overlay's
// recorder and the phase recorder listen to one run together.
class StepObservers final : public StepObserver {
 public:
  StepObservers(std::initializer_list<StepObserver*> observers) noexcept;
  void before_step() override;
  void after_step(const Simulation& sim, const SimStats& after, double sim_ms, std::uint64_t allocations) override;

 private:
  std::array<StepObserver*, 4> observers_{};
};

}  // namespace game
