#pragma once
// game::advise_capacities: from the peak live counts a run reached, the initial capacity each
// pool should start with so that the same run never grows: the peak plus a margin, rounded
// up. No ImGui here: the overlay's Advisor section, the report's "advisor" section and
// `poolshot --advise FILE` all call these functions, and tests call them directly.
#include "sim/scenario.hpp"
#include "sim/settings.hpp"
#include "sim/simulation.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <string>

namespace game {

struct AdvisorOptions {
  double margin = 0.25;       // fraction added to the peak: 0.25 = peak + 25 %
  std::size_t round_to = 64;  // suggestions are whole multiples of this (and at least this)
};

struct CapacityAdvice {
  PoolId pool = PoolId::bullets;
  std::size_t peak_live = 0;          // highest live count seen this run
  std::size_t current_initial = 0;    // the initial capacity in force
  std::size_t current_capacity = 0;   // slots the pool holds now
  std::size_t max_capacity = 0;       // the suggestion never passes it
  std::size_t suggested_initial = 0;  // peak * (1 + margin), rounded up, clamped to max
  std::uint64_t growth_events = 0;    // growths this run: what the suggestion would have saved
  std::uint64_t refused_spawns = 0;   // > 0: the limit, not the start size, is the problem
  bool clamped_to_max = false;        // the margin did not fit under max_capacity
  bool changes_anything() const noexcept { return suggested_initial != current_initial; }
};

using CapacityAdvices = std::array<CapacityAdvice, kPoolCount>;

// peak * (1 + margin), rounded up to round_to, at least round_to, at most max_capacity
// (and at least 1). Pure arithmetic, no overflow for any size_t peak.
std::size_t suggested_capacity(std::size_t peak, double margin, std::size_t round_to,
                               std::size_t max_capacity) noexcept;

CapacityAdvices advise_capacities(const SimStats& stats, const Settings& applied, const AdvisorOptions& options = {});

// Writes the suggestions into settings.pools[*].initial_capacity (what the overlay's button
// does; the simulation reserves the new capacity at the start of its next step).
void apply_advice(Settings& settings, const CapacityAdvices& advice);

// The suggestions as report JSON: {"margin", "round_to", "pools": {name: {...}}}.
nlohmann::json advice_json(const CapacityAdvices& advice, const AdvisorOptions& options);

// The scenario file `scenario_json` with pools.<name>.initial_capacity replaced by the
// suggestions (everything else kept as written), so a rerun with it starts big enough.
nlohmann::json advised_scenario(nlohmann::json scenario_json, const CapacityAdvices& advice);

// Reads scenario_path, applies advised_scenario and writes out_path (pretty JSON). On
// failure returns false and sets `error` to one line naming the file.
bool write_advised_scenario(const std::string& scenario_path, const std::string& out_path,
                            const CapacityAdvices& advice, std::string& error);

}  // namespace game
