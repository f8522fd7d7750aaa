#pragma once
// game::CompareRun: the A/B comparison. The same scenario, seed, settings and input run
// twice from the start, once with pooling on and once with it off, and every step of both
// is timed and its operator new calls counted. The two runs are interleaved step by step
// (A B, B A, A B ...: the order flips each frame) rather than one after the other, so a
// noisy neighbour or a clock change hits both alike (DESIGN.md, "Measuring"). Pooling
// changes speed, never the game: both runs must end on the same state hash.
//
// Each run steps through its own StepLoop (step_loop.hpp: the one step loop) into its own
// FrameLog, whose engine::FrameStats gives the percentiles, as in a headless run's report.
//
// The overlay advances a CompareRun a few milliseconds per rendered frame, so the window
// stays responsive; `poolshot --headless --compare` runs it to the end at once.
#include "metrics/frame_log.hpp"
#include "sim/scenario.hpp"
#include "sim/settings.hpp"
#include "sim/simulation.hpp"
#include "metrics/step_loop.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace game {

struct CompareSeries {
  bool pooling = true;
  FrameLog log{1, 0};  // every step of the run (reserved for all of them by CompareRun)
  std::size_t steps() const noexcept { return log.frames().size(); }  // recorded so far
  float sim_ms(std::size_t step) const noexcept;                      // 0-based, oldest first
  std::uint64_t allocations(std::size_t step) const noexcept;         // operator new calls
  Percentiles sim;  // over every step's sim_ms (filled when the run is done)
  std::uint64_t heap_allocs_total = 0, heap_allocs_max = 0;
  std::uint64_t growth_events = 0;  // all pools (heap mode: pointer-array growths)
  std::size_t bytes_held = 0;       // all pools, at the end
  std::uint64_t state_hash = 0;     // at the end
};

struct CompareResult {
  std::string scenario;
  std::uint64_t seed = 0;
  std::uint64_t frames = 0;  // steps each run makes
  CompareSeries pooled, heap;
  bool done = false;
  bool same_game() const noexcept { return pooled.state_hash == heap.state_hash; }
};

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

// heap / pooled of two figures; null in JSON when pooled is 0.
double compare_ratio(double heap, double pooled) noexcept;
// The report of `poolshot --headless --compare`: both runs' summaries and their ratios.
nlohmann::json compare_json(const CompareResult& result);

}  // namespace game
