// The parallel update phase (issue 30): bullets and particles update in chunks on a
// WorkerTeam, each chunk writing only its own objects and its own scratch, and the releases
// merge in walk order. So the game is the same at any thread count, pooled or not, and with
// the thread count changed mid-run. Needs the simulation layer only, so the TSan build runs it
// too: there it is the race check of the parallel step (storm.json: 100k+ bullets).
#include "sim/scenario.hpp"
#include "sim/simulation.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace game {
namespace {

Scenario storm() {
  const ScenarioResult loaded = load_scenario(std::string(POOLSHOT_SCENARIO_DIR) + "/storm.json");
  EXPECT_TRUE(loaded.scenario.has_value()) << loaded.error;
  return loaded.scenario.value_or(Scenario{});
}

// The storm for 600 frames is the race check: past the first growths and into the
// 100k-bullet stretch. Under ThreadSanitizer every access is instrumented (5-15x slower), so the
// other tests there play 300. POOLSHOT_PARALLEL_FRAMES=N plays N in every test.
int frames_asked(int otherwise) {
  const char* asked = std::getenv("POOLSHOT_PARALLEL_FRAMES");
  const int frames = asked != nullptr ? std::atoi(asked) : 0;
  return frames > 0 ? frames : otherwise;
}
const int kRaceCheckFrames = frames_asked(600);
#if defined(__SANITIZE_THREAD__)
const int kFrames = frames_asked(300);
#else
const int kFrames = frames_asked(600);
#endif

struct Outcome {
  std::uint64_t hash;
  std::uint64_t kills, cancels, hits;
  std::size_t live_bullets;
  std::uint32_t threads;
};

Outcome play(std::uint32_t threads, bool pooling, int frames = kFrames, std::uint32_t switch_to = 0) {
  Simulation sim(storm(), 11);
  sim.settings().autofire = true;
  sim.settings().threads = threads;
  sim.settings().pooling = pooling;
  for (int f = 0; f < frames; ++f) {
    if (switch_to != 0 && f == frames / 2) sim.settings().threads = switch_to;
    sim.step({});
  }
  const SimStats& s = sim.stats();
  return {sim.state_hash(), s.kills, s.cancels, s.hits, s.pools[0].live, s.threads};
}

TEST(ParallelStep, TheSameGameAtOneTwoThreeAndEightThreads) {
  const Outcome one = play(1, true, kRaceCheckFrames);
  EXPECT_EQ(one.threads, 1u);
  EXPECT_GT(one.live_bullets, 1000u) << "the storm must be on for the comparison to mean anything";
  EXPECT_GT(one.hits, 0u);
  for (const std::uint32_t threads : {2u, 3u, 8u}) {
    const Outcome many = play(threads, true, kRaceCheckFrames);
    EXPECT_EQ(many.threads, threads);
    EXPECT_EQ(many.hash, one.hash) << threads << " threads";
    EXPECT_EQ(many.kills, one.kills);
    EXPECT_EQ(many.cancels, one.cancels);
  }
}

TEST(ParallelStep, HeapRunsTheSameParallelCodeToTheSameGame) {
  const Outcome pooled = play(1, true);
  EXPECT_EQ(play(2, false).hash, pooled.hash) << "heap at 2 threads";
  EXPECT_EQ(play(8, false).hash, pooled.hash) << "heap at 8 threads";
}

TEST(ParallelStep, ChangingTheThreadCountMidRunChangesNothing) {
  const Outcome steady = play(2, true);
  const Outcome switched = play(2, true, kFrames, 3);
  EXPECT_EQ(switched.threads, 3u);
  EXPECT_EQ(switched.hash, steady.hash);
}

TEST(ParallelStep, ThreadCountsOutsideOneToTheCapAreClamped) {
  Simulation sim(storm(), 11);
  sim.settings().threads = 0;
  sim.step({});
  EXPECT_EQ(sim.stats().threads, 1u);
  sim.settings().threads = 100000;
  sim.step({});
  EXPECT_EQ(sim.stats().threads, kMaxThreads);
}

}  // namespace
}  // namespace game
