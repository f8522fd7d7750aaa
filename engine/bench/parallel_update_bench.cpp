// Workload 7, the parallel update phase: a pool of N particles, each step moves every
// one and marks those whose life ran out (phase one, VectorPool::erase_if_chunked in chunks),
// releases them in order (phase two) and spawns as many again, so the pool stays at N. The
// scheduler that runs phase one's chunks (four per thread, claimed as threads come, as in the
// game) is the contender:
//   Inline       one thread, the chunks in order (the single-threaded game)
//   WorkerTeam   engine::WorkerTeam: persistent std::threads that spin at most 50 us between runs,
//                then sleep
//   Tbb          oneTBB's parallel_for in a task_arena of the same size (libtbb-dev; only if found)
// at 2 threads, the acceptance machine's core count (range(1)). Items are particles per second.
// BM_ParallelFloor is the machine's own limit: the same move over a plain std::vector, split in
// halves, nothing released. What 2 threads give there (memory bandwidth, the second core) is
// the most a pool's parallel pass can give on this machine.
#include <engine/pool/vector_pool.hpp>
#include <engine/pool/worker_team.hpp>

#include <benchmark/benchmark.h>

#if POOLSHOT_HAVE_TBB
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#endif

#include <atomic>
#include <chrono>
#include <thread>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

struct Particle {
  float x, y, vx, vy;
  float life;
  std::uint32_t seq;
};

// Phase one's work per particle: what ParticleSystem::update does.
bool move_and_keep(Particle& p) noexcept {
  p.x += p.vx * (1.0f / 60);
  p.y += p.vy * (1.0f / 60);
  p.vx *= 0.99f;
  p.vy *= 0.99f;
  p.life -= 1.0f / 60;
  return p.life > 0;
}

Particle spawn(std::uint32_t seq) {  // lives 0.5..2.5 s: about 1 in 90 dies each step
  const float life = 0.5f + static_cast<float>((seq * 2654435761u) >> 20) / 4096.0f * 2.0f;
  return Particle{0, 0, 1, 1, life, seq};
}

template <class Scheduler>
void BM_ParallelUpdate(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<std::size_t>(state.range(1));
  engine::GrowthPolicy policy;
  policy.storage = engine::StorageMode::packed_pages;
  policy.initial_capacity = n;
  engine::VectorPool<Particle> pool(policy);
  std::uint32_t seq = 0;
  for (std::size_t i = 0; i < n; ++i) pool.emplace(spawn(seq++));
  Scheduler scheduler(threads);
  const std::size_t chunks = threads == 1 ? 1 : 4 * threads;  // as the game splits a walk (ObjectStore)
  for (int warm = 0; warm < 5; ++warm)
    pool.erase_if_chunked(chunks, scheduler, [](std::size_t, Particle& p) { return !move_and_keep(p); });
  std::size_t died = 0;
  for (auto _ : state) {
    const std::size_t dead =
        pool.erase_if_chunked(chunks, scheduler, [](std::size_t, Particle& p) { return !move_and_keep(p); });
    for (std::size_t i = 0; i < dead; ++i) pool.emplace(spawn(seq++));
    died += dead;
  }
  if (pool.size() != n) state.SkipWithError("the pool lost particles");
  benchmark::DoNotOptimize(died);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

struct Inline {  // the chunks in order on this thread
  explicit Inline(std::size_t) {}
  template <class Task>
  void operator()(std::size_t chunks, Task&& task) const {
    for (std::size_t k = 0; k < chunks; ++k) task(k);
  }
};

struct Team {
  explicit Team(std::size_t threads) : team(threads) {}
  template <class Task>
  void operator()(std::size_t chunks, Task&& task) {
    team(chunks, task);
  }
  engine::WorkerTeam team;
};

template <class Scheduler>
void BM_ParallelFloor(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<std::size_t>(state.range(1));
  std::vector<Particle> particles;
  particles.reserve(n);
  for (std::size_t i = 0; i < n; ++i) particles.push_back(spawn(static_cast<std::uint32_t>(i)));
  Scheduler scheduler(threads);
  std::vector<std::size_t> kept(threads);
  const auto pass = [&](std::size_t k) {
    std::size_t keep = 0;
    for (std::size_t i = n * k / threads; i < n * (k + 1) / threads; ++i) {
      Particle& p = particles[i];
      if (move_and_keep(p)) ++keep;
      if (p.life <= 0) p.life += 2.0f;  // the spawn in place: the vector stays at n
    }
    kept[k] = keep;
  };
  for (std::size_t warm = 0; warm < 5u; ++warm) scheduler(threads, pass);
  for (auto _ : state) {
    scheduler(threads, pass);
    benchmark::DoNotOptimize(kept.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

#if POOLSHOT_HAVE_TBB
struct Tbb {
  explicit Tbb(std::size_t threads) : arena(static_cast<int>(threads)) {}
  template <class Task>
  void operator()(std::size_t chunks, Task&& task) {
    arena.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, chunks, 1),
          [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t k = r.begin(); k != r.end(); ++k) task(k);
          },
          tbb::simple_partitioner());
    });
  }
  tbb::task_arena arena;
};
#endif

// A run of two tiny tasks after a pause longer than the workers spin (a frame's render, here
// 2 ms): what the first pass of a game step pays for a worker that went to sleep. A run waits
// only for the tasks its workers took, so the caller does both when the worker is late; with
// range(0) = 1 the caller first calls wake() and works 50 us (a step's serial start) before it.
void BM_RunAfterPause(benchmark::State& state) {
  engine::WorkerTeam team(2);
  const bool wake = state.range(0) != 0;
  std::atomic<std::size_t> sink{0};
  using clock = std::chrono::steady_clock;
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (wake) {
      team.wake();
      for (const auto until = clock::now() + std::chrono::microseconds(50); clock::now() < until;) {}
    }
    const auto start = clock::now();
    team(2, [&](std::size_t k) { sink.fetch_add(k, std::memory_order_relaxed); });
    state.SetIterationTime(std::chrono::duration<double>(clock::now() - start).count());
  }
}
BENCHMARK(BM_RunAfterPause)->Arg(0)->Arg(1)->UseManualTime()->Iterations(300)->Unit(benchmark::kMicrosecond);

const bool registered = [] {
  const auto add = [](const char* name, auto* fn, std::int64_t threads) {
    for (const std::int64_t n : {100'000, 1'000'000}) {
      benchmark::RegisterBenchmark(name, fn)->Args({n, threads})->Unit(benchmark::kMicrosecond)->UseRealTime();
    }
  };
  add("BM_ParallelUpdate/Inline", &BM_ParallelUpdate<Inline>, 1);
  add("BM_ParallelUpdate/WorkerTeam", &BM_ParallelUpdate<Team>, 2);
  add("BM_ParallelFloor/Inline", &BM_ParallelFloor<Inline>, 1);
  add("BM_ParallelFloor/WorkerTeam", &BM_ParallelFloor<Team>, 2);
#if POOLSHOT_HAVE_TBB
  add("BM_ParallelUpdate/Tbb", &BM_ParallelUpdate<Tbb>, 2);
#endif
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
