#pragma once
// game::run_headless: `poolshot --headless` and the tests' runs. N steps of the one step
// loop (StepLoop, step_loop.hpp) into a FrameLog sized for the run, summarised for the report.
#include "app/step_loop.hpp"
#include "metrics/frame_log.hpp"
#include "metrics/step_observer.hpp"
#include "sim/input.hpp"
#include "sim/script.hpp"
#include "sim/simulation.hpp"

#include <cstddef>
#include <cstdint>

namespace game {

// Runs `frames` steps with `input` each step (autofire, if on in the settings, overrides it).
FrameSummary run_headless(Simulation& sim, std::uint64_t frames, const Input& input = {},
                          std::uint64_t warmup_frames = kDefaultWarmupFrames, StepObserver* observer = nullptr);
// Same, with each step's input and settings changes from `script` (outside the timed part).
FrameSummary run_headless(Simulation& sim, std::uint64_t frames, ScriptPlayer& script,
                          std::uint64_t warmup_frames = kDefaultWarmupFrames, StepObserver* observer = nullptr);

}  // namespace game
