#pragma once
// game::StepLoop: the one step loop. Everything that steps a Simulation steps it here:
//   GameApp              the window: each fixed step the runtime's clock allows (game_app.hpp)
//   game::run_headless   `poolshot --headless`, its report and --frame-csv, tests (headless_run.hpp)
//   game::CompareRun     the A/B compare: one StepLoop per run, stepped in turn (compare_run.hpp)
//   poolshot_soak        long play with pooling switched on and off (game/soak/soak_main.cpp)
// It lives in the app layer because it drives; game/metrics only records (StepObserver,
// FrameLog). engine::Application decides when the window steps, not how.
//
// One step: the observer's before_step(), the input, then the step itself, timed with
// steady_clock and its operator new calls counted (alloc_counter.hpp), with nothing else
// inside the timed part; then, outside it, the growth check, the FrameLog record, the
// observer's after_step() and the pacing rest (set_pacing).
#include "metrics/frame_log.hpp"
#include "metrics/step_observer.hpp"
#include "sim/input.hpp"
#include "sim/simulation.hpp"

#include <cstdint>

namespace game {

struct StepResult {
  double sim_ms = 0;              // the step alone (steady_clock)
  std::uint64_t allocations = 0;  // operator new calls inside the step
  bool storage_grew = false;      // a pool (or heap-mode pointer array) grew in the step
  std::uint8_t tag = 0;           // kFrameTag* bits (step_frame_tag): heap, switch, growth, rebuild
  FrameSwitch switched;           // pooling, storage or walk the step switched (SimStats::switched)
};

class StepLoop {
 public:
  // log: where every step is recorded (nullptr: nowhere). observer: told about every step.
  // paced: whether set_pacing(true) makes this loop rest after each step (the A/B compare
  // times two runs against each other and never rests).
  StepLoop(Simulation& sim, FrameLog* log, StepObserver* observer = nullptr, bool paced = true);

  StepResult step(const Input& input);  // one step with `input`
  // `steps` steps, each with the input next_input() returns (asked after before_step(),
  // outside the timed part: a ScriptPlayer applies its settings changes there).
  template <class NextInput>
  void run(std::uint64_t steps, NextInput next_input) {
    for (std::uint64_t i = 0; i < steps; ++i) {
      if (observer_) observer_->before_step();
      timed_step(next_input());
    }
  }

  std::uint64_t steps() const noexcept { return steps_; }  // steps taken so far
  Simulation& sim() noexcept { return sim_; }

 private:
  StepResult timed_step(const Input& input);  // everything after before_step()

  Simulation& sim_;
  FrameLog* log_;
  StepObserver* observer_;
  bool paced_;
  std::uint64_t steps_ = 0;
};

// Pacing (`poolshot --pace`): after each timed step a headless loop rests a ninth of the
// step's time, outside the timing. A run under a real-time scheduler (scripts/bench uses
// `chrt -f`, so other processes cannot preempt a frame) then stays below the kernel's
// real-time budget (95 % of each second); a loop that never sleeps would be stalled for
// 50 ms once a second, and each stall would show up as a frame spike. Off by default.
void set_pacing(bool on) noexcept;
void pace_after_step(double step_ms) noexcept;  // sleeps step_ms / 9 when pacing is on

// Steps once, returning the operator new calls the step made (tests, GameApp).
std::uint64_t count_step_allocations(Simulation& sim, const Input& input = {});

}  // namespace game
