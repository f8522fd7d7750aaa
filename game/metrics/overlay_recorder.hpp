#pragma once
// game::OverlayRecorder: the statistics the overlay draws from, kept the same way whether a
// window runs or not: an engine::FrameStats (per-frame times and counters, with every pool
// growth as an event on the frame it happened in) and the PoolRateMeter. The window's
// GameApp feeds the runtime's own FrameStats; a headless run feeds the recorder's as the
// StepObserver of run_headless(), so the report of a headless run holds what the overlay shows.
#include "metrics/step_observer.hpp"
#include "metrics/overlay_model.hpp"
#include "metrics/overlay_rates.hpp"
#include "sim/simulation.hpp"

#include <engine/frame_stats.hpp>

#include <cstddef>
#include <cstdint>

namespace game {

// Frames the overlay's statistics keep: the 20 s window at up to 120 frames per second.
inline constexpr std::size_t kOverlayStatsFrames = 2400;
inline constexpr std::size_t kOverlayStatsEvents = 1024;  // pool growths marked on the graph

// Turns the growths the simulation logged since `seen` into FrameStats events (kind = the
// pool, label = its name, value = the new capacity) on the frame being recorded.
void record_growth_events(const Simulation& sim, engine::FrameStats& frames, std::size_t& seen) noexcept;

// The settings switch the simulation's last step made (SimStats::switched) as FrameStats
// events on the frame being recorded (record_switch_events, frame_log.hpp): the graph's lines.
void record_switch_events(const Simulation& sim, engine::FrameStats& frames) noexcept;

// The frame's FrameCounters::tag: kFrameTagHeap while the applied settings have pooling off.
std::uint8_t frame_tag(const Simulation& sim) noexcept;
// What FrameStats records for a frame whose steps or-ed `step_tags` (step_frame_tag): their
// switch, growth and rebuild bits, which the matched-load comparison leaves out, and the heap
// bit as the graph shades it (pooling off now, after the frame's steps).
std::uint8_t graph_frame_tag(std::uint8_t step_tags, const Simulation& sim) noexcept;

// As the observer of run_headless(), records one FrameStats frame per step (simulation time,
// allocations, the step's full tag, live objects, growth events) and samples the rate meter.
class OverlayRecorder final : public StepObserver {
 public:
  OverlayRecorder() : frames_(kOverlayStatsFrames, kOverlayStatsEvents) {}

  engine::FrameStats& frames() noexcept { return frames_; }
  const engine::FrameStats& frames() const noexcept { return frames_; }
  PoolRateMeter& rates() noexcept { return rates_; }
  const PoolRateMeter& rates() const noexcept { return rates_; }

  // The model of what the overlay would show now (deterministic view: one step per frame).
  OverlayModel model(const Simulation& sim, OverlayViewOptions view = {}) const;

  void before_step() override;
  void after_step(const Simulation& sim, const SimStats& after, double sim_ms, std::uint64_t allocations) override;

 private:
  engine::FrameStats frames_;
  PoolRateMeter rates_;
  std::size_t growths_seen_ = 0;
};

}  // namespace game
