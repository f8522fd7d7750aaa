#pragma once
// game::CompareRun: the A/B comparison. The same scenario, seed, settings and input run
// twice from the start, once with pooling on and once with it off, and every step of both
// is timed and its operator new calls counted. The two runs are interleaved step by step
// (A B, B A, A B ...: the order flips each frame) rather than one after the other, so a
// noisy neighbour or a clock change hits both alike (docs/design.md, "How the figures are
// measured"). Pooling changes speed, never the game: both runs must end on the same state hash.
//
// Each run steps through its own StepLoop (app/step_loop.hpp: the one step loop) into its own
// FrameLog (the CompareResult in metrics/compare_result.hpp).
//
// Both runs play under load: fire held from the first step, aimed straight up (the input of
// assets/scripts/hold_fire.json), autofire off, whatever the player's own settings. With no
// input the ship never fires, the pools stay at a few dozen objects and the replay "shows" heap
// as fast as pooled; the autopilot fires in bursts and stays near a thousand objects.
//
// The overlay advances a CompareRun a few milliseconds per rendered frame, so the window
// stays responsive; `poolshot --headless --compare` runs it to the end at once.
#include "app/step_loop.hpp"
#include "metrics/compare_result.hpp"
#include "sim/scenario.hpp"
#include "sim/settings.hpp"
#include "sim/simulation.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace game {

class CompareRun {
 public:
  // Both simulations start from scratch with `settings` (its pooling flag is overridden).
  CompareRun(const Scenario& scenario, std::uint64_t seed, const Settings& settings, std::uint64_t frames);
  ~CompareRun();
  CompareRun(const CompareRun&) = delete;
  CompareRun& operator=(const CompareRun&) = delete;

  // Runs pairs of steps until both runs are done or budget_ms of wall time has passed
  // (at least one pair per call). Returns true once done.
  bool advance(double budget_ms);
  bool done() const noexcept { return result_.done; }
  double progress() const noexcept;  // 0..1
  const CompareResult& result() const noexcept { return result_; }

 private:
  void finish();

  std::unique_ptr<Simulation> pooled_, heap_;
  CompareResult result_;
  StepLoop pooled_loop_, heap_loop_;  // record into result_.pooled.log / result_.heap.log
  std::uint64_t next_frame_ = 0;
};

// The whole comparison, at once.
CompareResult run_compare(const Scenario& scenario, std::uint64_t seed, const Settings& settings, std::uint64_t frames);

}  // namespace game
