#include "app/compare_run.hpp"

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
  sim->settings().autofire = false;  // the load is held fire (held_fire), the same in both runs
  return sim;
}

CompareResult empty_result(const Scenario& scenario, std::uint64_t seed, std::uint64_t frames) {
  CompareResult r;
  r.scenario = scenario.name;
  r.seed = seed;
  r.frames = frames;
  r.load = "fire held, aiming straight up, in both runs (as assets/scripts/hold_fire.json)";
  r.pooled.pooling = true;
  r.heap.pooling = false;
  // Reserved up front: a growing series must not count as the runs' allocations, nor cost time.
  r.pooled.log = FrameLog(static_cast<std::size_t>(frames), 0);
  r.heap.log = FrameLog(static_cast<std::size_t>(frames), 0);
  return r;
}

// The load: fire held from the first step, aimed straight up, nothing else touched (the
// hold-fire script's input). The escalation then climbs as it does for a player holding fire.
Input held_fire(const Simulation& sim) {
  Input in;
  in.fire = true;
  in.aim = sim.player_position() + Vec2{0, 10000};
  return in;
}

}  // namespace

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
      pooled_loop_.step(held_fire(*pooled_));
      heap_loop_.step(held_fire(*heap_));
    } else {
      heap_loop_.step(held_fire(*heap_));
      pooled_loop_.step(held_fire(*pooled_));
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
  summarize_matched(result_);
  result_.done = true;
}

CompareResult run_compare(const Scenario& scenario, std::uint64_t seed, const Settings& settings,
                          std::uint64_t frames) {
  CompareRun run(scenario, seed, settings, frames);
  run.advance(std::numeric_limits<double>::infinity());
  return run.result();
}

}  // namespace game
