#include "metrics/overlay_recorder.hpp"

#include "metrics/matched_load.hpp"

namespace game {

void record_growth_events(const Simulation& sim, engine::FrameStats& frames, std::size_t& seen) noexcept {
  const auto& log = sim.growth_log();
  for (; seen < log.size(); ++seen) {
    const GrowthRecord& g = log[seen];
    if (g.rebuild) continue;  // a pooling switch, not a growth: no marker on the graph
    frames.record_event(static_cast<std::uint32_t>(g.pool), pool_name(g.pool),
                        static_cast<double>(g.event.new_capacity));
  }
}

void record_switch_events(const Simulation& sim, engine::FrameStats& frames) noexcept {
  record_switch_events(FrameSwitch::of(sim.stats().switched, sim.applied_settings()), frames);
}

std::uint8_t frame_tag(const Simulation& sim) noexcept {
  return sim.applied_settings().pooling ? std::uint8_t{0} : kFrameTagHeap;
}

std::uint8_t graph_frame_tag(std::uint8_t step_tags, const Simulation& sim) noexcept {
  return static_cast<std::uint8_t>((step_tags & ~kFrameTagHeap) | frame_tag(sim));
}

OverlayModel OverlayRecorder::model(const Simulation& sim, OverlayViewOptions view) const {
  view.fixed_frame_seconds = Simulation::kStepSeconds;
  return make_overlay_model({sim, frames_, rates_}, view);
}

void OverlayRecorder::before_step() { frames_.begin_frame(); }

void OverlayRecorder::after_step(const Simulation& sim, const SimStats& after, double sim_ms,
                                 std::uint64_t allocations) {
  frames_.add_sim_steps(1);
  frames_.set_time(engine::FrameTimer::simulation, sim_ms);
  frames_.set_time(engine::FrameTimer::frame, sim_ms);
  frames_.set_allocations(allocations);
  frames_.set_tag(graph_frame_tag(step_frame_tag(after), sim));
  frames_.set_live_objects(live_objects(after));
  record_growth_events(sim, frames_, growths_seen_);
  record_switch_events(sim, frames_);
  frames_.end_frame();
  rates_.sample(after.frame, after.pools);
}

}  // namespace game
