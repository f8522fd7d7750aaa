#include "overlay_recorder.hpp"

#include "alloc_counter.hpp"
#include "headless_run.hpp"

#include <algorithm>
#include <chrono>

namespace game {

void record_growth_events(const Simulation& sim, engine::FrameStats& frames, std::size_t& seen) noexcept {
  const auto& log = sim.growth_log();
  for (; seen < log.size(); ++seen) {
    const GrowthRecord& g = log[seen];
    frames.record_event(static_cast<std::uint32_t>(g.pool), pool_name(g.pool), static_cast<double>(g.event.new_capacity));
  }
}

OverlayModel OverlayRecorder::model(const Simulation& sim, OverlayViewOptions view) const {
  view.fixed_frame_seconds = Simulation::kStepSeconds;
  return make_overlay_model({sim, frames_, rates_}, view);
}

FrameSummary run_headless_recorded(Simulation& sim, std::uint64_t frames, OverlayRecorder& recorder,
                                   std::uint64_t warmup_frames) {
  using clock = std::chrono::steady_clock;
  FrameLog log(static_cast<std::size_t>(std::min<std::uint64_t>(frames, kMaxTimedFrames)), warmup_frames);
  engine::FrameStats& stats = recorder.frames_;
  std::uint64_t grown = sim.stats().growth_events;
  for (std::uint64_t f = 0; f < frames; ++f) {
    stats.begin_frame();
    const std::uint64_t allocs_before = heap_alloc_count();
    const auto start = clock::now();
    sim.step({});
    const auto stop = clock::now();
    const std::uint64_t allocs = heap_alloc_count() - allocs_before;
    // Bookkeeping after the clock stopped and the allocations were counted: not measured.
    const double ms = std::chrono::duration<double, std::milli>(stop - start).count();
    const SimStats after = sim.stats();
    log.record(ms, 0.0, allocs, after.growth_events != grown);
    grown = after.growth_events;
    stats.add_sim_steps(1);
    stats.set_time(engine::FrameTimer::simulation, ms);
    stats.set_time(engine::FrameTimer::frame, ms);
    stats.set_allocations(allocs);
    record_growth_events(sim, stats, recorder.growths_seen_);
    stats.end_frame();
    recorder.rates_.sample(after.frame, after.pools);
    pace_after_step(ms);  // --pace (scripts/bench): see headless_run.hpp
  }
  return log.summary();
}

}  // namespace game
