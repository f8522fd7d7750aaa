#pragma once
// game::CompareResult: what the A/B comparison recorded (app/compare_run.hpp drives it: the
// same scenario, seed, settings and input run twice, pooled and heap, interleaved step by
// step). Each run's steps go into its own FrameLog, whose engine::FrameStats gives the
// percentiles, as in a headless run's report. The overlay, the chart, the CSV and the report
// read this; none of them steps a simulation.
#include "metrics/frame_log.hpp"
#include "metrics/matched_load.hpp"
#include "sim/simulation.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

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
  std::string load;          // what drives both runs' ship (the load line): see CompareRun
  CompareSeries pooled, heap;
  // heap vs pooled at the same live count (matched_load.hpp, the panel's rule): no ratio when
  // the replay never reached a load (filled with the summaries, when both runs are done)
  MatchedLoad matched;
  bool done = false;
  bool same_game() const noexcept { return pooled.state_hash == heap.state_hash; }
};

// Fills a finished series' summary from its log and its simulation's end state.
void summarize(CompareSeries& series, const Simulation& sim);

// Fills result.matched from the two runs' frames (the heap run's and the pooled run's).
void summarize_matched(CompareResult& result);

// "load: ..." (the input both runs replay), for the panel and the command line.
std::string compare_load_line(const CompareResult& result);
// The matched-load verdict: "heap 3.4x slower at 300k objects (matched load)", or "not enough
// load to compare: ..." with the live count reached and the count the rule needs.
std::string compare_matched_line(const MatchedLoad& matched, const MatchedLoadRule& rule = {});

// heap / pooled of two figures; null in JSON when pooled is 0.
double compare_ratio(double heap, double pooled) noexcept;
// The report of `poolshot --headless --compare`: both runs' summaries and their ratios.
nlohmann::json compare_json(const CompareResult& result);

}  // namespace game
