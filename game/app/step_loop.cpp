#include "app/step_loop.hpp"

#include "metrics/alloc_counter.hpp"
#include "metrics/matched_load.hpp"

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

StepLoop::StepLoop(Simulation& sim, FrameLog* log, StepObserver* observer, bool paced)
    : sim_(sim), log_(log), observer_(observer), paced_(paced) {}

StepResult StepLoop::step(const Input& input) {
  if (observer_) observer_->before_step();
  return timed_step(input);
}

StepResult StepLoop::timed_step(const Input& input) {
  using clock = std::chrono::steady_clock;
  const std::uint64_t allocs_before = heap_alloc_count();
  const auto start = clock::now();
  sim_.step(input);
  const auto stop = clock::now();
  StepResult r;
  r.allocations = heap_alloc_count() - allocs_before;
  // Bookkeeping after the clock stopped and the allocations were counted: not measured.
  r.sim_ms = std::chrono::duration<double, std::milli>(stop - start).count();
  const SimStats& after = sim_.stats();
  r.storage_grew = after.grew;
  r.tag = step_frame_tag(after);  // the step's own stats say what it did: one rule, read here and by the recorder
  r.switched = FrameSwitch::of(after.switched, sim_.applied_settings());
  ++steps_;
  if (log_) log_->record(r.sim_ms, 0.0, r.allocations, r.tag, r.switched, live_objects(after));
  if (observer_) observer_->after_step(sim_, after, r.sim_ms, r.allocations);
  if (paced_) pace_after_step(r.sim_ms);
  return r;
}

}  // namespace game
