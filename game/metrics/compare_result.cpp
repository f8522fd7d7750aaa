#include "metrics/compare_result.hpp"

#include "metrics/report.hpp"

#include <nlohmann/json.hpp>

#include <engine/frame_stats.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

namespace game {

void summarize(CompareSeries& series, const Simulation& sim) {
  const FrameSummary frames = series.log.summary(false);
  series.sim = frames.sim_ms;
  series.heap_allocs_total = frames.heap_allocs_total;
  series.heap_allocs_max = frames.heap_allocs_per_frame_max;
  const SimStats& stats = sim.stats();
  series.growth_events = stats.growth_events;
  series.bytes_held = 0;
  for (const StoreStats& s : stats.pools) series.bytes_held += s.bytes_held;
  series.state_hash = sim.state_hash();
}

void summarize_matched(CompareResult& result) {
  MatchedLoadScratch scratch;
  result.matched = matched_load_paired(result.heap.log.frames(), result.pooled.log.frames(), scratch);
}

float CompareSeries::sim_ms(std::size_t step) const noexcept {
  return static_cast<float>(log.frames().sample(step).ms[static_cast<std::size_t>(engine::FrameTimer::simulation)]);
}

std::uint64_t CompareSeries::allocations(std::size_t step) const noexcept {
  return log.frames().sample(step).counters.allocations;
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

std::string compare_load_line(const CompareResult& r) { return "load: " + r.load; }

std::string compare_matched_line(const MatchedLoad& m, const MatchedLoadRule& rule) {
  char line[200];
  if (m.has_ratio) {
    matched_load_line(m, line, sizeof line);
  } else if (m.live_objects < rule.min_live) {
    std::snprintf(line, sizeof line,
                  "not enough load to compare: the runs reached %llu live objects, %llu needed; run more frames",
                  static_cast<unsigned long long>(m.live_objects), static_cast<unsigned long long>(rule.min_live));
  } else {
    std::snprintf(line, sizeof line,
                  "not enough load to compare: %zu heap and %zu pooled frames at %llu objects, %zu each needed",
                  m.heap_frames, m.pooled_frames, static_cast<unsigned long long>(m.live_objects), rule.min_frames);
  }
  return line;
}

nlohmann::json compare_json(const CompareResult& r) {
  return {{"scenario", r.scenario},
          {"load", r.load},
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
          {"matched_load", matched_load_json(r.matched)},
          {"same_state_hash", r.same_game()}};
}

}  // namespace game
