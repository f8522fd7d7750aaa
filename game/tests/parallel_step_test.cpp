// The parallel update phase: bullets and particles update in chunks on a
// WorkerTeam, each chunk writing only its own objects and its own scratch, and the releases
// merge in walk order. So the game is the same at any thread count, pooled or not, and with
// the thread count changed mid-run. Needs the simulation layer only, so the TSan build runs it
// too: there it is the race check of the parallel step (storm.json: 100k+ bullets).
#include "sim/bullet_manager.hpp"
#include "sim/particle_system.hpp"
#include "sim/scenario.hpp"
#include "sim/simulation.hpp"
#include "sim/thread_controller.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
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

TEST(ParallelStep, ThreadCountsAboveTheCapAreClampedAndZeroIsAuto) {
  Simulation sim(storm(), 11);
  sim.settings().threads = 100000;
  sim.step({});
  EXPECT_EQ(sim.stats().threads, kMaxThreads);
  EXPECT_FALSE(sim.stats().threads_auto);
  sim.settings().threads = kAutoThreads;
  sim.step({});
  EXPECT_TRUE(sim.stats().threads_auto);
  EXPECT_EQ(sim.stats().threads, team_size_for(kAutoThreads)) << "auto starts on every thread of the team";
  EXPECT_EQ(sim.applied_settings().threads, kAutoThreads);
}

// More threads than the machine has cores, with a thread beside them that never sleeps: the
// parallel step still finishes (the caller and the workers sleep rather than spin against the
// busy core; ctest's TIMEOUT ends a hang) and plays the same game as one thread. Under TSan too.
TEST(ParallelStep, EightThreadsBesideABusyLoopFinishTheSameGame) {
#if defined(__SANITIZE_THREAD__)
  constexpr int kBusyFrames = 60;  // the storm's first volleys: 8 threads and a busy loop on TSan's slow steps
#else
  constexpr int kBusyFrames = 180;
#endif
  const Outcome one = play(1, true, kBusyFrames);
  std::atomic<bool> stop{false};
  std::thread busy([&stop] {
    std::uint64_t spins = 0;
    while (!stop.load(std::memory_order_relaxed)) ++spins;
    EXPECT_GT(spins, 0u);
  });
  const Outcome eight = play(8, true, kBusyFrames);
  const Outcome automatic = play(kAutoThreads, true, kBusyFrames);
  stop.store(true);
  busy.join();
  EXPECT_EQ(eight.threads, 8u);
  EXPECT_GT(one.live_bullets, kBusyFrames < 180 ? 100u : 1000u)
      << "the storm must be on for the comparison to mean anything";
  EXPECT_EQ(eight.hash, one.hash);
  EXPECT_EQ(eight.kills, one.kills);
  EXPECT_EQ(automatic.hash, one.hash) << "--threads auto changes who runs the chunks, not the game";
}

// --threads auto's choice, fed made-up step times: no clock, so the decisions are exact.
ThreadController::Config small_config() {
  ThreadController::Config c;
  c.window = 4;
  c.settle = 1;
  c.interval = 10;
  c.max_interval = 40;
  c.margin = 0.05;
  return c;
}
// Runs `steps` steps, each taking many_ms on more than one thread and one_ms on one.
void feed(ThreadController& c, int steps, double many_ms, double one_ms) {
  for (int i = 0; i < steps; ++i) c.record(c.threads() == 1 ? one_ms : many_ms);
}

TEST(ThreadController, KeepsManyThreadsWhileTheyAreFaster) {
  ThreadController c(4, small_config());
  EXPECT_EQ(c.threads(), 4u);
  EXPECT_EQ(c.ratio(), 0.0);
  feed(c, 10, 1.0, 2.0);  // settle 1 + interval: the probe starts
  EXPECT_TRUE(c.probing());
  EXPECT_EQ(c.threads(), 1u) << "the probe runs one thread";
  feed(c, 5, 1.0, 2.0);  // settle + window
  EXPECT_FALSE(c.probing());
  EXPECT_EQ(c.probes(), 1u);
  EXPECT_EQ(c.threads(), 4u);
  EXPECT_DOUBLE_EQ(c.ratio(), 0.5);
  EXPECT_EQ(c.measured_threads(), 4u);
}

TEST(ThreadController, FallsBackToOneThreadWhenManyAreSlowerAndReturnsWhenTheyAreFasterAgain) {
  ThreadController c(2, small_config());
  feed(c, 15, 3.0, 2.0);  // a busy machine: two threads slower
  EXPECT_EQ(c.probes(), 1u);
  EXPECT_EQ(c.threads(), 1u);
  EXPECT_DOUBLE_EQ(c.ratio(), 1.5);
  feed(c, 15, 3.0, 2.0);  // the next probe runs two threads, still slower: one stays
  EXPECT_EQ(c.probes(), 2u);
  EXPECT_EQ(c.chosen(), 1u);
  feed(c, 100, 1.0, 2.0);  // the machine is quiet again: the next probe finds two faster
  EXPECT_EQ(c.chosen(), 2u);
  EXPECT_DOUBLE_EQ(c.ratio(), 0.5);
}

TEST(ThreadController, ATieKeepsOneThreadAndTheMarginDecidesTheWayBack) {
  ThreadController c(2, small_config());
  EXPECT_EQ(c.decide(2, 1.0), 2u) << "a tie keeps many";
  EXPECT_EQ(c.decide(2, 1.01), 1u) << "slower by anything: one";
  EXPECT_EQ(c.decide(1, 0.96), 1u) << "faster by less than the margin: one stays";
  EXPECT_EQ(c.decide(1, 0.94), 2u);
  EXPECT_EQ(c.decide(2, 0.0), 2u) << "nothing measured: no change";
}

TEST(ThreadController, MediansIgnoreASpikeAndProbesThatKeepTheCountComeLessOften) {
  ThreadController c(2, small_config());
  int steps = 0;
  std::uint32_t probes_seen = 0;
  std::vector<int> probe_starts;
  for (; steps < 200; ++steps) {
    const bool was_probing = c.probing();
    // Two threads twice as fast, but every fifth step on two threads is a 50 ms spike.
    const double ms = c.threads() == 1 ? 2.0 : (steps % 5 == 0 ? 50.0 : 1.0);
    c.record(ms);
    if (!was_probing && c.probing()) probe_starts.push_back(steps);
    probes_seen = c.probes();
  }
  EXPECT_EQ(c.chosen(), 2u) << "one spike in a window of four does not move the median";
  EXPECT_DOUBLE_EQ(c.ratio(), 0.5);
  ASSERT_GE(probe_starts.size(), 3u);
  EXPECT_GT(probe_starts[2] - probe_starts[1], probe_starts[1] - probe_starts[0]) << "the interval doubles";
  EXPECT_GE(probes_seen, 3u);
}

TEST(ThreadController, ATeamOfOneNeverProbes) {
  ThreadController c(1, small_config());
  feed(c, 100, 1.0, 1.0);
  EXPECT_EQ(c.threads(), 1u);
  EXPECT_EQ(c.probes(), 0u);
}

// A step's particle bursts are queued and built on the team at the particle update
// (ParticleSystem::spawn_queued), the ones past the queue's 4,096 built at once on this thread.
// 5,000 bursts of 1 to 3 particles, into a pool capped below their total: every particle is its
// burst's (origin and count by sequence number), the first ones in sequence order are kept and
// the rest refused, and a store that spawns one at a time (a list walk) holds the same particles.
struct Spawned {
  std::vector<Particle> by_seq;
  StoreStats stats;
};
Spawned burst_5000(engine::StorageMode storage, WalkMode walk, std::size_t threads) {
  engine::GrowthPolicy policy;
  policy.storage = storage;
  policy.initial_capacity = 512;  // grows during the spawn, as one at a time would
  policy.max_capacity = 9000;
  ParticleSystem particles(policy, true, 7, 1.0f / 60, walk);
  engine::WorkerTeam team(threads);
  for (int b = 0; b < 5000; ++b) {
    BurstSpec spec;
    spec.count = 1 + b % 3;
    spec.life_min = spec.life_max = 10;  // none dies in the update
    particles.burst(spec, Vec2{static_cast<float>(b), 0});
  }
  particles.update(team, 0);  // dt 0: nothing moves either
  Spawned out;
  particles.store().for_each([&](const Particle& p) { out.by_seq.push_back(p); });
  std::sort(out.by_seq.begin(), out.by_seq.end(), [](const Particle& a, const Particle& b) { return a.seq < b.seq; });
  out.stats = particles.store().stats();
  return out;
}

TEST(ParallelStep, QueuedBurstsSpawnAsOneAtATimeWouldAtAnyThreadCount) {
  const Spawned one = burst_5000(engine::StorageMode::packed_pages, WalkMode::slot_order, 1);
  ASSERT_EQ(one.by_seq.size(), 9000u) << "capped: 9,999 asked";
  EXPECT_EQ(one.stats.refused_spawns, 999u);
  EXPECT_EQ(one.stats.spawns, 9000u);
  std::uint64_t seq = 1;
  for (int b = 0; b < 5000 && seq <= 9000; ++b) {  // burst b: 1 + b % 3 particles at (b, 0)
    for (int i = 0; i < 1 + b % 3 && seq <= 9000; ++i, ++seq) {
      const Particle& p = one.by_seq[seq - 1];
      ASSERT_EQ(p.seq, seq);
      ASSERT_EQ(p.pos.x, static_cast<float>(b)) << "particle " << seq;
    }
  }
  const auto same = [&](const Spawned& other, const char* what) {
    ASSERT_EQ(other.by_seq.size(), one.by_seq.size()) << what;
    EXPECT_EQ(other.stats.refused_spawns, one.stats.refused_spawns) << what;
    for (std::size_t i = 0; i < one.by_seq.size(); ++i) {
      const Particle& a = one.by_seq[i];
      const Particle& b = other.by_seq[i];
      ASSERT_TRUE(a.seq == b.seq && a.pos.x == b.pos.x && a.vel.x == b.vel.x && a.vel.y == b.vel.y &&
                  a.life == b.life && a.size == b.size && a.color == b.color)
          << what << ": particle " << a.seq;
    }
  };
  same(burst_5000(engine::StorageMode::packed_pages, WalkMode::slot_order, 3), "3 threads");
  same(burst_5000(engine::StorageMode::contiguous, WalkMode::slot_order, 2), "one at a time (list walk)");
  same(burst_5000(engine::StorageMode::heap, WalkMode::slot_order, 2), "heap");
}

// The enemies' volleys are fired at once on the team (BulletManager::fire_chunked): the store
// must end as fire() one shot at a time leaves it, refusals and sequence numbers included. 3,000
// shots into a store capped at 2,500 that starts small and grows, after 700 fired one at a time
// and every third of those released (so the batch reuses freed slots first, then fresh ones).
struct Fired {
  std::vector<Bullet> by_seq;
  StoreStats stats;
  std::uint64_t next_seq;
  std::size_t spawned;
};
struct TestShot {
  Vec2 pos, vel;
  std::uint32_t color;
};
Fired fire_3000(engine::StorageMode storage, std::size_t threads, bool chunked) {
  engine::GrowthPolicy policy;
  policy.storage = storage;
  policy.initial_capacity = 256;
  policy.max_capacity = 2500;
  BulletManager bullets(policy, true);
  engine::WorkerTeam team(threads);
  const Rect everywhere{{-1e6f, -1e6f}, {1e6f, 1e6f}};
  for (int i = 0; i < 700; ++i) bullets.fire({0, static_cast<float>(i)}, {0, 0}, 2.0f, 7u, 3);
  bullets.update(
      team, 0, everywhere, [](std::size_t, const Bullet& b) { return b.seq % 3 == 0; }, [](std::size_t, Bullet&) {});
  std::vector<TestShot> shots;
  for (int i = 0; i < 3000; ++i) {
    shots.push_back({{static_cast<float>(i), 1}, {static_cast<float>(i % 7), 2}, static_cast<std::uint32_t>(i)});
  }
  Fired out;
  out.spawned = 0;
  if (chunked) {
    out.spawned = bullets.fire_chunked(shots.size(), team, 4.0f, 1,
                                       [&](std::size_t i) noexcept -> const TestShot& { return shots[i]; });
  } else {
    for (const TestShot& s : shots) {
      if (!bullets.fire(s.pos, s.vel, 4.0f, s.color, 1).is_null()) ++out.spawned;
    }
  }
  bullets.store().for_each([&](const Bullet& b) { out.by_seq.push_back(b); });
  std::sort(out.by_seq.begin(), out.by_seq.end(), [](const Bullet& a, const Bullet& b) { return a.seq < b.seq; });
  out.stats = bullets.store().stats();
  out.next_seq = bullets.next_seq();
  return out;
}

// A step's particles: the walk of those already there runs beside the step's serial start, which
// only queues bursts (more than the queue's 4,096 here: it grows rather than spawn mid-walk);
// the bursts then spawn moved by their first step, and those whose life ends in it are gone
// after it. The same at 1 and 2 threads.
TEST(ParallelStep, BurstsQueuedBesideTheWalkSpawnMovedOnceAndTheBriefOnesGo) {
  const float dt = 1.0f / 60;
  for (std::size_t threads : {1u, 2u}) {
    engine::GrowthPolicy policy;
    policy.storage = engine::StorageMode::packed_pages;
    ParticleSystem particles(policy, true, 7, dt, WalkMode::slot_order);
    engine::WorkerTeam team(threads);
    BurstSpec old;  // already there when the step starts: walked once, beside the bursts below
    old.count = 3000;
    old.life_min = old.life_max = 1.0f;
    particles.burst(old, Vec2{-100, 0});
    particles.update(team, dt);
    BurstSpec brief;  // shorter than a step
    brief.count = 2;
    brief.life_min = brief.life_max = 0.5f * dt;
    BurstSpec lasting;
    lasting.life_min = lasting.life_max = 1.0f;
    particles.update(team, dt, [&] {
      for (int b = 0; b < 5000; ++b) particles.burst(b % 2 == 0 ? brief : lasting, Vec2{static_cast<float>(b), 0});
    });
    EXPECT_EQ(particles.store().size(), 3000u) << "nothing spawned during the walk";
    const StoreStats walked = particles.store().stats();
    particles.spawn_bursts(team);
    const StoreStats stats = particles.store().stats();
    EXPECT_EQ(stats.update_ms, walked.update_ms) << "the pass that releases the brief ones is no walk of the step";
    EXPECT_GE(stats.release_ms, walked.release_ms) << "it adds to the step's release phase";
    EXPECT_EQ(stats.spawns, 3000u + 2500u * 2 + 2500u);
    EXPECT_EQ(stats.releases, 2500u * 2) << threads << " threads: the brief ones died in their first step";
    ASSERT_EQ(stats.live, 3000u + 2500u);
    std::size_t old_ones = 0;
    particles.store().for_each([&](const Particle& p) {
      if (p.pos.x < -50) {
        ++old_ones;
        EXPECT_EQ(p.life, (1.0f - dt) - dt) << "two steps";
      } else {
        EXPECT_EQ(p.life, 1.0f - dt) << "one step, at its spawn";
        EXPECT_NE(p.pos.y, 0.0f) << "moved";
      }
    });
    EXPECT_EQ(old_ones, 3000u);
  }
}

TEST(ParallelStep, AVolleyFiredAtOnceEndsAsShotsFiredOneAtATime) {
  for (const auto storage :
       {engine::StorageMode::packed_pages, engine::StorageMode::contiguous, engine::StorageMode::heap}) {
    const Fired one = fire_3000(storage, 1, false);
    ASSERT_EQ(one.by_seq.size(), 2500u) << "capped";
    EXPECT_EQ(one.spawned, 2500u - (700u - 700u / 3));
    EXPECT_EQ(one.next_seq, 3701u) << "a refused shot still takes its number";
    for (const std::size_t threads : {1u, 2u, 3u}) {
      const Fired batch = fire_3000(storage, threads, true);
      ASSERT_EQ(batch.by_seq.size(), one.by_seq.size()) << threads << " threads";
      EXPECT_EQ(batch.spawned, one.spawned);
      EXPECT_EQ(batch.next_seq, one.next_seq);
      EXPECT_EQ(batch.stats.refused_spawns, one.stats.refused_spawns);
      EXPECT_EQ(batch.stats.spawns, one.stats.spawns);
      for (std::size_t i = 0; i < one.by_seq.size(); ++i) {
        const Bullet& a = one.by_seq[i];
        const Bullet& b = batch.by_seq[i];
        ASSERT_TRUE(a.seq == b.seq && a.pos.x == b.pos.x && a.pos.y == b.pos.y && a.prev.x == b.prev.x &&
                    a.vel.x == b.vel.x && a.vel.y == b.vel.y && a.radius == b.radius && a.color == b.color &&
                    a.damage == b.damage && a.target == b.target)
            << threads << " threads: bullet " << a.seq;
      }
    }
  }
}

}  // namespace
}  // namespace game
