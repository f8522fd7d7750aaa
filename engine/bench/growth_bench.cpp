// Workload 4, growth: from 1k to 1M live objects one emplace at a time, timing every emplace.
// The worst one is what a frame feels: a buffer that relocates on growth (std::vector, the pool
// in contiguous mode) stalls for milliseconds once it is big; one that adds pages or blocks
// (the pool in stable mode, plf::colony) should never stall for long.
#include "support/colony_contender.hpp"
#include "support/random_sequence.hpp"
#include "support/registration.hpp"
#include "support/vector_contender.hpp"
#include "support/vector_pool_contender.hpp"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace {

// Involuntary context switches of this thread so far: a run that was preempted shows a
// scheduler time slice (4 ms here) as its "worst emplace", whatever the container.
std::int64_t preemptions() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return static_cast<std::int64_t>(usage.ru_nivcsw);
}

constexpr std::uint32_t kStart = 1'000;
constexpr double kSlowMicroseconds = 100.0;  // the stable-mode budget for one emplace

template <class C>
void BM_GrowthWorstEmplace(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const auto target = static_cast<std::uint32_t>(state.range(0));
  const auto& spawns = bench::spawn_table();
  double worst_us = 0.0, worst_growth_us = 0.0, timed_us = 0.0;
  std::int64_t slow = 0, preempted = 0;
  for (auto _ : state) {
    std::optional<C> objects(std::in_place);
    std::uint32_t k = 0;
    for (; k < kStart; ++k) objects->spawn(spawns[k & bench::kTableMask], 1.0f, k);
    const std::int64_t preempted_before = preemptions();
    std::size_t capacity = objects->capacity();
    // One clock read per emplace: each interval is one emplace plus one clock read (~20 ns).
    auto before = Clock::now();
    for (; k < target; ++k) {
      objects->spawn(spawns[k & bench::kTableMask], 1.0f, k);
      const auto after = Clock::now();
      const double us = std::chrono::duration<double, std::micro>(after - before).count();
      before = after;
      worst_us = std::max(worst_us, us);
      timed_us += us;
      if (us > kSlowMicroseconds) ++slow;
      if (objects->capacity() != capacity) {  // this emplace grew the container
        capacity = objects->capacity();
        worst_growth_us = std::max(worst_growth_us, us);
      }
    }
    preempted += preemptions() - preempted_before;
    if (objects->size() != target) state.SkipWithError("lost objects while growing");
    state.PauseTiming();
    objects.reset();  // freeing 48 MB is not part of growing
    state.ResumeTiming();
  }
  const auto runs = static_cast<double>(state.iterations());
  state.counters["worst_us"] = worst_us;                           // max over every timed emplace of every iteration
  state.counters["worst_growth_us"] = worst_growth_us;             // max over the emplaces that grew capacity()
  state.counters["preemptions"] = static_cast<double>(preempted);  // > 0: worst_us may be the scheduler
  state.counters["total_ms"] = timed_us / 1000.0 / runs;
  state.counters["slow_emplaces"] = static_cast<double>(slow) / runs;  // over kSlowMicroseconds
  state.SetItemsProcessed(state.iterations() * (target - kStart));
}

const bool registered = [] {
  const auto body = [](auto tag) { return &BM_GrowthWorstEmplace<typename decltype(tag)::type>; };
  // One growth per repetition; scripts/bench-pool takes the median over repetitions.
  const auto configure = [](benchmark::internal::Benchmark* b, std::int64_t n) {
    b->Arg(n)->Iterations(1)->Unit(benchmark::kMillisecond);
  };
  using namespace bench;
  register_interleaved<VectorContender, PoolContiguousContender, PoolStableContender, PoolPackedPagesContender,
                       ColonyContender>("BM_GrowthWorstEmplace", {1'000'000}, body, configure);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
