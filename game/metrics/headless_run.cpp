#include "headless_run.hpp"

#include "alloc_counter.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace game {

namespace {

std::atomic<bool> g_pacing{false};

}  // namespace

void set_pacing(bool on) noexcept { g_pacing.store(on, std::memory_order_relaxed); }

void pace_after_step(double step_ms) noexcept {
  if (!g_pacing.load(std::memory_order_relaxed) || !(step_ms > 0)) return;
  // 90 % duty at most: under the 95 % real-time budget with room for the bookkeeping.
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(step_ms / 9));
}

std::uint64_t count_step_allocations(Simulation& sim, const Input& input) {
  const std::uint64_t before = heap_alloc_count();
  sim.step(input);
  return heap_alloc_count() - before;
}

StepObservers::StepObservers(std::initializer_list<StepObserver*> observers) noexcept {
  std::size_t n = 0;
  for (StepObserver* o : observers) {
    if (o && n < observers_.size()) observers_[n++] = o;
  }
}

void StepObservers::before_step() {
  for (StepObserver* o : observers_) {
    if (o) o->before_step();
  }
}

void StepObservers::after_step(const Simulation& sim, const SimStats& after, double sim_ms, std::uint64_t allocations) {
  for (StepObserver* o : observers_) {
    if (o) o->after_step(sim, after, sim_ms, allocations);
  }
}

namespace {

// The one headless loop; `next_input()` chooses each step's input before the clock starts.
template <class NextInput>
FrameSummary run_steps(Simulation& sim, std::uint64_t frames, NextInput next_input, std::uint64_t warmup_frames,
                       StepObserver* observer) {
  using clock = std::chrono::steady_clock;
  FrameLog log(static_cast<std::size_t>(std::min<std::uint64_t>(frames, kMaxTimedFrames)), warmup_frames);
  std::uint64_t grown = sim.stats().growth_events;
  for (std::uint64_t f = 0; f < frames; ++f) {
    if (observer) observer->before_step();
    const Input input = next_input();
    const std::uint64_t allocs_before = heap_alloc_count();
    const auto start = clock::now();
    sim.step(input);
    const auto stop = clock::now();
    const std::uint64_t allocs = heap_alloc_count() - allocs_before;
    // Bookkeeping after the clock stopped and the allocations were counted: not measured.
    const double ms = std::chrono::duration<double, std::milli>(stop - start).count();
    const SimStats after = sim.stats();
    log.record(ms, 0.0, allocs, after.growth_events != grown);
    grown = after.growth_events;
    if (observer) observer->after_step(sim, after, ms, allocs);
    pace_after_step(ms);
  }
  return log.summary();
}

}  // namespace

FrameSummary run_headless(Simulation& sim, std::uint64_t frames, const Input& input, std::uint64_t warmup_frames,
                          StepObserver* observer) {
  return run_steps(
      sim, frames, [&] { return input; }, warmup_frames, observer);
}

FrameSummary run_headless(Simulation& sim, std::uint64_t frames, ScriptPlayer& script, std::uint64_t warmup_frames,
                          StepObserver* observer) {
  const auto next = [&] { return script.next(sim.settings(), sim.player_position()); };
  return run_steps(sim, frames, next, warmup_frames, observer);
}

}  // namespace game
