#pragma once
// game::PhaseRecorder: the report's "phases". A phase is a span of steps with the same
// settings in force (those a script can set: pooling, storage, walk, stress, autofire, enemy
// density, particle counts); a new one starts at the step where a change applies. Each step's
// times and allocations go into a buffer reserved up front (recording never allocates);
// percentiles are computed at the end. Headless, it is a StepObserver of run_headless();
// in a window GameApp feeds the same after_step() and adds each frame's render time.
#include "metrics/frame_log.hpp"
#include "metrics/step_observer.hpp"
#include "metrics/heap_figures.hpp"
#include "sim/simulation.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace game {

struct PhaseSummary {
  std::uint64_t first_frame = 0, last_frame = 0;  // 1-based steps, both included
  bool pooling = true;
  engine::StorageMode storage = engine::StorageMode::contiguous;
  WalkMode walk = WalkMode::slot_order;
  std::uint32_t threads = 1;                            // the update phase's threads
  std::array<double, kPoolCount> walk_ns_per_object{};  // per pool, mean over the phase's steps
  Percentiles sim_ms, render_ms;                        // render: 0 headless
  std::size_t peak_live = 0;                            // all four pools summed, worst step
  std::uint64_t growth_events = 0;                      // pool growths during the phase
  std::uint64_t heap_allocs_p50 = 0;                    // operator new calls per step
  std::uint64_t heap_allocs_max = 0;
  // The allocator's figures and the resident set, read every kHeapSampleSteps steps (outside the
  // timed part; mallinfo2 walks the free lists): the last reading of the phase, and its step.
  HeapFigures heap;
  std::uint64_t heap_step = 0;
};

class PhaseRecorder final : public StepObserver {
 public:
  static constexpr std::size_t kMaxPhases = 1024;  // later changes extend the last phase
  static constexpr std::uint64_t kHeapSampleSteps = 15;

  // `frames`: steps to sample (reserved now, at most kMaxTimedFrames); steps past it still
  // count towards frame ranges, peaks and growths, but not towards the percentiles.
  PhaseRecorder(const Simulation& sim, std::uint64_t frames);

  void before_step() override {}
  void after_step(const Simulation& sim, const SimStats& after, double sim_ms, std::uint64_t allocations) override;
  // The render time of step `step` (1-based): the runtime knows it after the frame.
  void set_render_ms(std::uint64_t step, double ms) noexcept;

  std::uint64_t steps() const noexcept { return steps_; }
  std::vector<PhaseSummary> summaries() const;  // allocates (sorts copies): at the end

 private:
  struct Sample {
    float sim_ms, render_ms;
    std::uint32_t allocs;  // saturates at 2^32-1
  };
  struct Phase {
    PhaseSummary summary;  // frames, flags, peak and growths; the percentiles at the end
    Settings settings;     // in force during the phase
    std::size_t first_sample;
    std::uint64_t walked_steps = 0;  // steps in the running mean of walk_ns_per_object
  };

  std::vector<Sample> samples_;
  std::vector<Phase> phases_;
  std::uint64_t steps_ = 0;
  std::uint64_t growth_events_;  // the simulation's count after the last step
};

// [{first_frame, last_frame, pooling: "on"|"off", storage, sim_ms: {p50, p99, max},
//   render_ms: {...}, peak_live, growth_events, heap_allocs: {p50, max},
//   walk, walk_ns_per_object: {bullets, ...}}, ...]
nlohmann::json phases_json(const std::vector<PhaseSummary>& phases);

}  // namespace game
