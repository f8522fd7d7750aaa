#include "compare_run.hpp"

#include "alloc_counter.hpp"
#include "report.hpp"

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

Percentiles percentiles_of(const std::vector<float>& values) {
  Percentiles p;
  if (values.empty()) return p;
  std::vector<double> sorted;
  sorted.reserve(values.size());
  for (const float v : values) sorted.push_back(static_cast<double>(v));
  std::sort(sorted.begin(), sorted.end());
  p.p50 = engine::nearest_rank_percentile(sorted.data(), sorted.size(), 50.0);
  p.p99 = engine::nearest_rank_percentile(sorted.data(), sorted.size(), 99.0);
  p.max = engine::nearest_rank_percentile(sorted.data(), sorted.size(), 100.0);
  return p;
}

void summarize(CompareSeries& series, const Simulation& sim) {
  series.sim = percentiles_of(series.sim_ms);
  series.heap_allocs_total = 0;
  series.heap_allocs_max = 0;
  for (const std::uint64_t a : series.allocations) {
    series.heap_allocs_total += a;
    series.heap_allocs_max = std::max(series.heap_allocs_max, a);
  }
  const SimStats stats = sim.stats();
  series.growth_events = stats.growth_events;
  series.bytes_held = 0;
  for (const StoreStats& s : stats.pools) series.bytes_held += s.bytes_held;
  series.state_hash = sim.state_hash();
}

}  // namespace

CompareRun::CompareRun(const Scenario& scenario, std::uint64_t seed, const Settings& settings, std::uint64_t frames)
    : pooled_(make_run(scenario, seed, settings, true)), heap_(make_run(scenario, seed, settings, false)) {
  result_.scenario = scenario.name;
  result_.seed = seed;
  result_.frames = frames;
  result_.pooled.pooling = true;
  result_.heap.pooling = false;
  // Reserved up front: a growing series must not count as the runs' allocations, nor cost time.
  for (CompareSeries* s : {&result_.pooled, &result_.heap}) {
    s->sim_ms.reserve(static_cast<std::size_t>(frames));
    s->allocations.reserve(static_cast<std::size_t>(frames));
  }
  if (frames == 0) finish();
}

CompareRun::~CompareRun() = default;

void CompareRun::step(Simulation& sim, CompareSeries& series) {
  using clock = std::chrono::steady_clock;
  const std::uint64_t allocs_before = heap_alloc_count();
  const auto start = clock::now();
  sim.step({});
  const auto stop = clock::now();
  series.allocations.push_back(heap_alloc_count() - allocs_before);
  series.sim_ms.push_back(static_cast<float>(std::chrono::duration<double, std::milli>(stop - start).count()));
}

bool CompareRun::advance(double budget_ms) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  while (!result_.done) {
    // The order flips every frame, so neither run always follows the other's cache traffic.
    if (next_frame_ % 2 == 0) {
      step(*pooled_, result_.pooled);
      step(*heap_, result_.heap);
    } else {
      step(*heap_, result_.heap);
      step(*pooled_, result_.pooled);
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
