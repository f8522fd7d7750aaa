#pragma once
// What poolshot_soak watches while it plays: the switching schedule and the per-step checks
// (caps, the policy's capacity bound, live peaks, resident memory), as the observer of the
// one step loop (game::StepLoop). soak_main.cpp runs it and judges the totals.
#include "sim/simulation.hpp"
#include "app/step_loop.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace soak {

struct Args {
  std::string scenario = std::string(POOLSHOT_SCENARIO_DIR) + "/storm.json";
  std::uint64_t frames = 200000;  // the documented soak; tests pass a few thousand
  std::uint64_t switch_every = 300;
  std::uint64_t seed = 7;
  bool compare = true;  // also run the never-switching reference
};

// What the run watches, per pool and overall. "Capacity stops growing" is judged like with
// like: capacity against what the policy needs for the live peak (a slot leak), and the live
// peak of the last quarter against the peak before it (an object leak). Comparing raw capacity
// peaks would not work: each return from heap mode rebuilds the pool, and a doubling pool
// lands a power of two higher the first time the storm's natural peak crosses one.
struct PoolWatch {
  std::size_t live_peak_before_last_quarter = 0, live_peak_last_quarter = 0;
  std::size_t capacity_peak_warm = 0, capacity_peak_late = 0;
  std::size_t worst_capacity = 0, worst_bound = 0;  // the frame closest to (or past) the bound
  std::uint64_t new_highs_late = 0;                 // frames after warm-up that raised the capacity peak so far
};

struct Totals {
  std::array<PoolWatch, game::kPoolCount> pools{};
  std::uint64_t over_cap_frames = 0, over_bound_frames = 0;
  std::uint64_t switches = 0;
  // Resident memory, sampled every few frames. Pool bytes may legitimately grow with the live
  // peak (checked above), so the leak check is on resident memory minus the pools' bytes.
  std::size_t rss_warm = 0, rss_late_max = 0;
  std::size_t other_warm = 0, other_late_max = 0;  // rss - pool bytes
};

double mib(std::size_t bytes);

// The soak's part of each step of the loop (game::StepLoop): the schedule before it, the
// checks after it.
class SoakWatch final : public game::StepObserver {
 public:
  SoakWatch(game::Simulation& sim, const game::Scenario& scenario, const Args& args);
  void before_step() override;
  void after_step(const game::Simulation& sim, const game::SimStats& stats, double, std::uint64_t) override;
  const Totals& totals() const noexcept { return totals_; }

 private:
  game::Simulation& sim_;
  const game::Scenario& scenario_;
  const Args& args_;
  const std::uint64_t report_every_, warm_end_;
  Totals totals_;
  std::uint64_t frame_ = 0;
  bool was_pooled_ = true;
};

}  // namespace soak
