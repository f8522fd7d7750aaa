#pragma once
// Helpers shared by the game's tests: load the repo's scenarios, run a simulation.
#include "headless_run.hpp"
#include "scenario.hpp"
#include "simulation.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace game::test {

inline Scenario repo_scenario(const std::string& name) {
  const ScenarioResult r = load_scenario(std::string(POOLSHOT_SCENARIO_DIR) + "/" + name);
  if (!r.scenario) ADD_FAILURE() << r.error;
  return r.scenario ? *r.scenario : Scenario{};
}

// Runs `frames` autofire steps; before step f (1-based) calls `before_step(sim, f)` if given.
// Returns the state hashes of every `checkpoint`-th step and the last one, folded together:
// a game over and restart clears the world, so one final hash could miss a difference that
// existed before it.
inline std::uint64_t hash_after(const Scenario& scenario, std::uint64_t seed, int frames,
                                const std::function<void(Simulation&, int)>& before_step = {},
                                int checkpoint = 150) {
  Simulation sim(scenario, seed);
  sim.settings().autofire = true;
  std::uint64_t folded = 0;
  for (int f = 1; f <= frames; ++f) {
    if (before_step) before_step(sim, f);
    sim.step({});
    if (f % checkpoint == 0 || f == frames) folded = folded * 0x100000001b3ull ^ sim.state_hash();
  }
  return folded;
}

}  // namespace game::test
