#include "metrics/phase_recorder.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace game {

namespace {

// The settings whose change starts a phase: those a script can set (script.hpp).
bool same_phase(const Settings& a, const Settings& b) {
  return a.pooling == b.pooling && a.storage == b.storage && a.walk == b.walk && a.threads == b.threads &&
         a.stress == b.stress && a.autofire == b.autofire && a.enemy_density == b.enemy_density &&
         a.particles_per_explosion == b.particles_per_explosion && a.sparks_per_hit == b.sparks_per_hit &&
         a.trail_per_second == b.trail_per_second;
}

nlohmann::json walk_costs(const PhaseSummary& p) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < kPoolCount; ++i) out[pool_name(static_cast<PoolId>(i))] = p.walk_ns_per_object[i];
  return out;
}

}  // namespace

PhaseRecorder::PhaseRecorder(const Simulation& sim, std::uint64_t frames) : growth_events_(sim.stats().growth_events) {
  samples_.reserve(static_cast<std::size_t>(std::clamp<std::uint64_t>(frames, 1, kMaxTimedFrames)));
  phases_.reserve(kMaxPhases);
}

void PhaseRecorder::after_step(const Simulation& sim, const SimStats& after, double sim_ms, std::uint64_t allocations) {
  const std::uint64_t step = ++steps_;
  const Settings& now = sim.applied_settings();
  if (phases_.empty() || (!same_phase(phases_.back().settings, now) && phases_.size() < kMaxPhases)) {
    Phase p;
    p.summary.first_frame = step;
    p.summary.pooling = now.pooling;
    p.summary.storage = now.storage;
    p.summary.walk = now.walk;
    p.summary.threads = now.threads;
    p.settings = now;
    p.first_sample = samples_.size();
    phases_.push_back(p);  // within the reservation: no allocation
  }
  Phase& p = phases_.back();
  p.summary.last_frame = step;
  std::size_t live = 0;
  for (const StoreStats& s : after.pools) live += s.live;
  p.summary.peak_live = std::max(p.summary.peak_live, live);
  if (step % kHeapSampleSteps == 0 || p.summary.heap_step == 0) {
    p.summary.heap = read_heap_figures();
    p.summary.heap_step = step;
  }
  ++p.walked_steps;
  for (std::size_t i = 0; i < kPoolCount; ++i) {  // a running mean of the smoothed per-object cost
    double& mean = p.summary.walk_ns_per_object[i];
    mean += (after.pools[i].walk_ns_per_object - mean) / static_cast<double>(p.walked_steps);
  }
  p.summary.growth_events += after.growth_events - growth_events_;
  growth_events_ = after.growth_events;
  if (samples_.size() < samples_.capacity()) {
    constexpr std::uint64_t kMaxAllocs = std::numeric_limits<std::uint32_t>::max();
    const auto allocs = static_cast<std::uint32_t>(std::min(allocations, kMaxAllocs));
    samples_.push_back({static_cast<float>(sim_ms), 0.0f, allocs});
  }
}

void PhaseRecorder::set_render_ms(std::uint64_t step, double ms) noexcept {
  if (step >= 1 && step <= samples_.size()) samples_[step - 1].render_ms = static_cast<float>(ms);
}

std::vector<PhaseSummary> PhaseRecorder::summaries() const {
  std::vector<PhaseSummary> out;
  out.reserve(phases_.size());
  std::vector<double> sim, render, allocs;  // percentiles_of sorts them in place
  for (std::size_t i = 0; i < phases_.size(); ++i) {
    const std::size_t end = i + 1 < phases_.size() ? phases_[i + 1].first_sample : samples_.size();
    sim.clear();
    render.clear();
    allocs.clear();
    PhaseSummary s = phases_[i].summary;
    for (std::size_t k = phases_[i].first_sample; k < end; ++k) {
      sim.push_back(samples_[k].sim_ms);
      render.push_back(samples_[k].render_ms);
      allocs.push_back(static_cast<double>(samples_[k].allocs));
      s.heap_allocs_max = std::max<std::uint64_t>(s.heap_allocs_max, samples_[k].allocs);
    }
    s.sim_ms = percentiles_of(sim);
    s.render_ms = percentiles_of(render);
    s.heap_allocs_p50 = static_cast<std::uint64_t>(percentiles_of(allocs).p50);
    out.push_back(s);
  }
  return out;
}

nlohmann::json phases_json(const std::vector<PhaseSummary>& phases) {
  nlohmann::json out = nlohmann::json::array();
  for (const PhaseSummary& p : phases) {
    out.push_back({{"first_frame", p.first_frame},
                   {"last_frame", p.last_frame},
                   {"pooling", p.pooling ? "on" : "off"},
                   {"storage", engine::storage_mode_name(p.storage)},
                   {"walk", std::string(walk_name(p.walk))},
                   {"threads", p.threads},
                   {"walk_ns_per_object", walk_costs(p)},
                   {"sim_ms", percentiles_json(p.sim_ms)},
                   {"render_ms", percentiles_json(p.render_ms)},
                   {"peak_live", p.peak_live},
                   {"growth_events", p.growth_events},
                   {"heap_allocs", {{"p50", p.heap_allocs_p50}, {"max", p.heap_allocs_max}}},
                   {"memory", {{"step", p.heap_step}, {"heap", heap_figures_json(p.heap)}}}});
  }
  return out;
}

}  // namespace game
