#include "metrics/compare_run.hpp"

#include "metrics/report.hpp"

#include <engine/frame_stats.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace game {

namespace {

std::unique_ptr<Simulation> make_run(const Scenario& base, std::uint64_t seed, const Settings& settings, bool pooling) {
  // The scenario carries the storage the pools are built with, so neither run starts with
  // a migration; the settings (stress, autofire, ...) take effect at the first step.
  Scenario scenario = base;
  scenario.pooling = pooling;
  scenario.storage = settings.storage;
  scenario.walk = settings.walk;
  scenario.pools = settings.pools;
  auto sim = std::make_unique<Simulation>(scenario, seed);
  sim->settings() = settings;
  sim->settings().pooling = pooling;
  return sim;
}

CompareResult empty_result(const Scenario& scenario, std::uint64_t seed, std::uint64_t frames) {
  CompareResult r;
  r.scenario = scenario.name;
  r.seed = seed;
  r.frames = frames;
  r.pooled.pooling = true;
  r.heap.pooling = false;
  // Reserved up front: a growing series must not count as the runs' allocations, nor cost time.
  r.pooled.log = FrameLog(static_cast<std::size_t>(frames), 0);
  r.heap.log = FrameLog(static_cast<std::size_t>(frames), 0);
  return r;
}

void summarize(CompareSeries& series, const Simulation& sim) {
  const FrameSummary frames = series.log.summary(false);
  series.sim = frames.sim_ms;
  series.heap_allocs_total = frames.heap_allocs_total;
  series.heap_allocs_max = frames.heap_allocs_per_frame_max;
  const SimStats stats = sim.stats();
  series.growth_events = stats.growth_events;
  series.bytes_held = 0;
  for (const StoreStats& s : stats.pools) series.bytes_held += s.bytes_held;
  series.state_hash = sim.state_hash();
}

}  // namespace

float CompareSeries::sim_ms(std::size_t step) const noexcept {
  return static_cast<float>(log.frames().sample(step).ms[static_cast<std::size_t>(engine::FrameTimer::simulation)]);
}

std::uint64_t CompareSeries::allocations(std::size_t step) const noexcept {
  return log.frames().sample(step).counters.allocations;
}

CompareRun::CompareRun(const Scenario& scenario, std::uint64_t seed, const Settings& settings, std::uint64_t frames)
    : pooled_(make_run(scenario, seed, settings, true)),
      heap_(make_run(scenario, seed, settings, false)),
      result_(empty_result(scenario, seed, frames)),
      // Never paced: the two runs are timed against each other.
      pooled_loop_(*pooled_, &result_.pooled.log, nullptr, false),
      heap_loop_(*heap_, &result_.heap.log, nullptr, false) {
  if (frames == 0) finish();
}

CompareRun::~CompareRun() = default;

bool CompareRun::advance(double budget_ms) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  while (!result_.done) {
    // The order flips every frame, so neither run always follows the other's cache traffic.
    if (next_frame_ % 2 == 0) {
      pooled_loop_.step({});
      heap_loop_.step({});
    } else {
      heap_loop_.step({});
      pooled_loop_.step({});
    }
    if (++next_frame_ >= result_.frames) finish();
    if (std::chrono::duration<double, std::milli>(clock::now() - start).count() >= budget_ms) break;
  }
  return result_.done;
}

double CompareRun::progress() const noexcept {
  if (result_.frames == 0) return 1.0;
  return static_cast<double>(next_frame_) / static_cast<double>(result_.frames);
}

void CompareRun::finish() {
  summarize(result_.pooled, *pooled_);
  summarize(result_.heap, *heap_);
  result_.done = true;
}

CompareResult run_compare(const Scenario& scenario, std::uint64_t seed, const Settings& settings,
                          std::uint64_t frames) {
  CompareRun run(scenario, seed, settings, frames);
  run.advance(std::numeric_limits<double>::infinity());
  return run.result();
}

double compare_ratio(double heap, double pooled) noexcept {
  return pooled > 0 ? heap / pooled : std::numeric_limits<double>::quiet_NaN();
}

namespace {

nlohmann::json ratio_json(double heap, double pooled) {
  const double r = compare_ratio(heap, pooled);
  return std::isfinite(r) ? nlohmann::json(r) : nlohmann::json(nullptr);
}

nlohmann::json series_json(const CompareSeries& s) {
  return {{"pooling", s.pooling ? "on" : "off"},
          {"sim_ms", {{"p50", s.sim.p50}, {"p99", s.sim.p99}, {"max", s.sim.max}}},
          {"heap_allocs", {{"total", s.heap_allocs_total}, {"per_frame_max", s.heap_allocs_max}}},
          {"growth_events", s.growth_events},
          {"bytes_held", s.bytes_held},
          {"state_hash", hex_hash(s.state_hash)}};
}

}  // namespace

nlohmann::json compare_json(const CompareResult& r) {
  return {{"scenario", r.scenario},
          {"seed", r.seed},
          {"frames", r.frames},
          {"order", "interleaved step by step, order flipped every frame"},
          {"pooled", series_json(r.pooled)},
          {"heap", series_json(r.heap)},
          {"heap_over_pooled",
           {{"sim_p50", ratio_json(r.heap.sim.p50, r.pooled.sim.p50)},
            {"sim_p99", ratio_json(r.heap.sim.p99, r.pooled.sim.p99)},
            {"sim_max", ratio_json(r.heap.sim.max, r.pooled.sim.max)},
            {"heap_allocs_total", ratio_json(static_cast<double>(r.heap.heap_allocs_total),
                                             static_cast<double>(r.pooled.heap_allocs_total))}}},
          {"same_state_hash", r.same_game()}};
}

}  // namespace game
