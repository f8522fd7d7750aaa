#include "metrics/capacity_advisor.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace game {

namespace {

double sane_margin(double margin) noexcept { return std::isfinite(margin) ? std::clamp(margin, 0.0, 100.0) : 0.0; }

// The peak plus the margin, before rounding and clamping (as a double: peaks near SIZE_MAX
// must not wrap).
double with_margin(std::size_t peak, double margin) noexcept {
  return std::ceil(static_cast<double>(peak) * (1.0 + sane_margin(margin)));
}

}  // namespace

std::size_t suggested_capacity(std::size_t peak, double margin, std::size_t round_to,
                               std::size_t max_capacity) noexcept {
  const std::size_t cap = std::max<std::size_t>(1, max_capacity);
  const std::size_t unit = std::max<std::size_t>(1, round_to);
  const double wanted = with_margin(peak, margin);
  if (wanted >= static_cast<double>(cap)) return cap;
  std::size_t n = std::max({static_cast<std::size_t>(wanted), peak, unit});
  if (const std::size_t rest = n % unit; rest != 0) {
    if (n > cap - (unit - rest)) return cap;  // rounding up would pass the limit
    n += unit - rest;
  }
  return std::min(n, cap);
}

CapacityAdvices advise_capacities(const SimStats& stats, const Settings& applied, const AdvisorOptions& options) {
  CapacityAdvices out{};
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    const StoreStats& s = stats.pools[i];
    const PoolConfig& c = applied.pools[i];
    CapacityAdvice& a = out[i];
    a.pool = static_cast<PoolId>(i);
    a.peak_live = s.peak_live;
    a.current_initial = c.initial_capacity;
    a.current_capacity = s.capacity;
    a.max_capacity = c.max_capacity;
    a.suggested_initial = suggested_capacity(s.peak_live, options.margin, options.round_to, c.max_capacity);
    a.growth_events = s.growth_events;
    a.refused_spawns = s.refused_spawns;
    a.clamped_to_max = with_margin(s.peak_live, options.margin) > static_cast<double>(c.max_capacity);
  }
  return out;
}

void apply_advice(Settings& settings, const CapacityAdvices& advice) {
  for (const CapacityAdvice& a : advice) {
    PoolConfig& c = settings.pools[static_cast<std::size_t>(a.pool)];
    c.initial_capacity = std::min(a.suggested_initial, c.max_capacity);
  }
}

nlohmann::json advice_json(const CapacityAdvices& advice, const AdvisorOptions& options) {
  nlohmann::json pools = nlohmann::json::object();
  for (const CapacityAdvice& a : advice) {
    pools[pool_name(a.pool)] = {{"peak_live", a.peak_live},
                                {"current_initial_capacity", a.current_initial},
                                {"current_capacity", a.current_capacity},
                                {"max_capacity", a.max_capacity},
                                {"suggested_initial_capacity", a.suggested_initial},
                                {"growth_events", a.growth_events},
                                {"refused_spawns", a.refused_spawns},
                                {"clamped_to_max", a.clamped_to_max}};
  }
  return {{"margin", sane_margin(options.margin)},
          {"round_to", std::max<std::size_t>(1, options.round_to)},
          {"rule", "initial_capacity = peak_live * (1 + margin), rounded up to round_to, at most max_capacity"},
          {"pools", pools}};
}

nlohmann::json advised_scenario(nlohmann::json scenario_json, const CapacityAdvices& advice) {
  if (!scenario_json.is_object()) scenario_json = nlohmann::json::object();
  nlohmann::json& pools = scenario_json["pools"];
  if (!pools.is_object()) pools = nlohmann::json::object();
  for (const CapacityAdvice& a : advice) {
    nlohmann::json& pool = pools[pool_name(a.pool)];
    if (!pool.is_object()) pool = nlohmann::json::object();
    pool["initial_capacity"] = a.suggested_initial;
    // The loader insists initial <= max; the advice never passes the max in force, but a
    // file may say less than the run used (an overlay edit): keep the file loadable.
    if (pool.contains("max_capacity") && pool["max_capacity"].is_number_unsigned() &&
        pool["max_capacity"].get<std::size_t>() < a.suggested_initial) {
      pool["max_capacity"] = a.suggested_initial;
    }
  }
  return scenario_json;
}

bool write_advised_scenario(const std::string& scenario_path, const std::string& out_path,
                            const CapacityAdvices& advice, std::string& error) {
  std::ifstream in(scenario_path, std::ios::binary);
  if (!in) {
    error = "cannot read scenario '" + scenario_path + "': " + std::strerror(errno);
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json scenario = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (scenario.is_discarded()) {
    error = "scenario '" + scenario_path + "' is not JSON";
    return false;
  }
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "cannot write '" + out_path + "': " + std::strerror(errno);
    return false;
  }
  out << advised_scenario(std::move(scenario), advice).dump(2) << '\n';
  out.flush();
  if (!out) {
    error = "cannot write '" + out_path + "': write failed";
    return false;
  }
  return true;
}

}  // namespace game
