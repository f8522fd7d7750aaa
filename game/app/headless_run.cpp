#include "app/headless_run.hpp"

#include <algorithm>

namespace game {

namespace {

template <class NextInput>
FrameSummary run_steps(Simulation& sim, std::uint64_t frames, NextInput next_input, std::uint64_t warmup_frames,
                       StepObserver* observer) {
  FrameLog log(static_cast<std::size_t>(std::min<std::uint64_t>(frames, kMaxTimedFrames)), warmup_frames);
  StepLoop loop(sim, &log, observer);
  loop.run(frames, next_input);
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
