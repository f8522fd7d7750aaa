#pragma once
// game::run_headless: steps a Simulation with no window, timing each step with steady_clock
// and counting the operator new calls inside it. Used by `poolshot --headless` and tests.
#include "frame_log.hpp"
#include "input.hpp"
#include "script.hpp"
#include "simulation.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace game {

inline constexpr std::uint64_t kDefaultWarmupFrames = 120;  // 2 s of game
inline constexpr std::size_t kMaxTimedFrames = std::size_t{1} << 20;

// Told about every step of a headless loop, outside the timed part: the overlay's recorder
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

// Runs `frames` steps with `input` each step (autofire, if on in the settings, overrides it).
FrameSummary run_headless(Simulation& sim, std::uint64_t frames, const Input& input = {},
                          std::uint64_t warmup_frames = kDefaultWarmupFrames, StepObserver* observer = nullptr);
// Same, with each step's input and settings changes from `script` (outside the timed part).
FrameSummary run_headless(Simulation& sim, std::uint64_t frames, ScriptPlayer& script,
                          std::uint64_t warmup_frames = kDefaultWarmupFrames, StepObserver* observer = nullptr);

// Pacing (`poolshot --pace`): after each timed step a headless loop rests a ninth of the
// step's time, outside the timing. A run under a real-time scheduler (scripts/bench uses
// `chrt -f`, so other processes cannot preempt a frame) then stays below the kernel's
// real-time budget (95 % of each second); a loop that never sleeps would be stalled for
// 50 ms once a second, and each stall would show up as a frame spike. Off by default.
void set_pacing(bool on) noexcept;
void pace_after_step(double step_ms) noexcept;  // sleeps step_ms / 9 when pacing is on

// Steps once, returning the operator new calls the step made (tests).
std::uint64_t count_step_allocations(Simulation& sim, const Input& input = {});

}  // namespace game
