#pragma once
// Helpers shared by the game's tests: load the repo's scenarios, run a simulation, run the
// real binary.
#include "app/headless_run.hpp"
#include "sim/scenario.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

namespace game::test {

// AddressSanitizer replaces malloc, so glibc's own figures (mallinfo2) read as zeros there.
#if defined(POOLSHOT_ASAN)  // cmake/PoolshotSanitizers.cmake
inline constexpr bool kMallocReplaced = true;
#else
inline constexpr bool kMallocReplaced = false;
#endif

// A scratch path under the temp directory that no other test process uses: the name plus
// this process's id, so two ctest runs on one machine (two worktrees, CI beside a developer)
// never remove or overwrite each other's files.
inline std::filesystem::path scratch_path(const std::string& name) {
  const std::filesystem::path given(name);  // the id goes before the extension: x.png -> x_123.png
  return std::filesystem::temp_directory_path() /
         (given.stem().string() + "_" + std::to_string(::getpid()) + given.extension().string());
}

inline Scenario repo_scenario(const std::string& name) {
  const ScenarioResult r = load_scenario(std::string(POOLSHOT_SCENARIO_DIR) + "/" + name);
  if (!r.scenario) ADD_FAILURE() << r.error;
  return r.scenario ? *r.scenario : Scenario{};
}

// Pools that start at `initial` slots and grow a page of the smallest size (64 slots) at a time,
// so a short run grows them many times in the default layout (packed_pages) as in contiguous.
inline void use_tiny_pools(Scenario& s, std::size_t initial) {
  for (PoolConfig& p : s.pools) {
    p.initial_capacity = initial;
    p.page_slots = 64;
  }
}

// One step's input: fire held (or not), aimed straight up from the start position at the
// enemies, no movement: the player who stands and holds fire.
inline Input fire_up(bool fire) {
  Input in;
  in.fire = fire;
  in.aim = {640, 720};
  return in;
}

// Runs `frames` autofire steps; before step f (1-based) calls `before_step(sim, f)` if given.
// Returns the state hashes of every `checkpoint`-th step and the last one, folded together:
// a game over and restart clears the world, so one final hash could miss a difference that
// existed before it.
inline std::uint64_t hash_after(const Scenario& scenario, std::uint64_t seed, int frames,
                                const std::function<void(Simulation&, int)>& before_step = {}, int checkpoint = 150) {
  Simulation sim(scenario, seed);
  sim.settings().autofire = true;
  std::uint64_t folded = 0;
  for (int f = 1; f <= frames; ++f) {
    if (before_step) before_step(sim, f);
    sim.step({});
    if (f % checkpoint == 0 || f == frames) folded = folded * 0x100000001b3ull ^ sim.state_hash();
  }
  return folded;
}

// What a run of a binary gave back.
struct RunResult {
  int exit_code = -1;  // -1: it could not be started, or a signal ended it
  std::string out;     // the captured streams, see Streams
};

enum class Streams { stderr_only, stdout_and_stderr };

// Runs `binary` through the shell with `args` (already shell-quoted) and returns its exit code
// and the `streams` it wrote. DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER are unset, so the
// result does not depend on the desktop the tests run from; `env` ("NAME=value ...") is then
// set on top.
inline RunResult run_binary(const std::string& binary, const std::string& args, Streams streams,
                            const std::string& env = "") {
  const std::string command = "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER " + env + " '" + binary + "' " +
                              args + (streams == Streams::stderr_only ? " 2>&1 >/dev/null" : " 2>&1");
  RunResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace game::test
