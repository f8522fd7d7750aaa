// Workload 1, a game frame: N live particles; each frame 2% are born, all are updated, and the
// 2% whose life ran out die. The population stays exactly N, and every contender births,
// updates and kills the same particles (same seeds, exact float lifetimes).
#include "support/colony_contender.hpp"
#include "support/pointer_contenders.hpp"
#include "support/random_lines_contender.hpp"
#include "support/random_sequence.hpp"
#include "support/registration.hpp"
#include "support/slot_map_contender.hpp"
#include "support/vector_contender.hpp"
#include "support/vector_pool_contender.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

// Lifetimes are kLifetimeSteps steps. The starting population has every remaining life from 1 to
// kLifetimeSteps equally often, shuffled in memory; newborns get one step more because they are
// updated in the frame they are born. So exactly N / kLifetimeSteps die each frame: 2%.
constexpr std::size_t kLifetimeSteps = 50;
constexpr std::size_t kWarmupFrames = kLifetimeSteps;  // every starting particle replaced once

std::vector<std::uint8_t> shuffled_remaining_lives(std::size_t n) {
  std::vector<std::uint8_t> lives(n);
  for (std::size_t i = 0; i < n; ++i) lives[i] = static_cast<std::uint8_t>(1 + i % kLifetimeSteps);
  bench::SplitMix64 rng(0x5EED0003);
  for (std::size_t i = n; i > 1; --i) std::swap(lives[i - 1], lives[rng.below(i)]);
  return lives;
}

template <class C>
void BM_GameFrame(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& spawns = bench::spawn_table();
  C particles;
  std::uint32_t spawned = 0;
  const auto spawn = [&](float life_seconds) {
    particles.spawn(spawns[spawned & bench::kTableMask], life_seconds, spawned);
    ++spawned;
  };
  for (const std::uint8_t steps : shuffled_remaining_lives(n)) spawn(static_cast<float>(steps) * bench::kStep);

  const std::size_t births = n / kLifetimeSteps;
  const float newborn_life = static_cast<float>(kLifetimeSteps + 1) * bench::kStep;
  const auto frame = [&] {
    for (std::size_t b = 0; b < births; ++b) spawn(newborn_life);
    return particles.update_and_cull([](bench::Particle& p) { return p.update(bench::kStep); });
  };
  for (std::size_t f = 0; f < kWarmupFrames; ++f) frame();

  std::size_t deaths = 0;
  for (auto _ : state) {
    deaths += frame();
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(deaths);
  // A contender that lost or kept a particle it should not have is wrong, not fast.
  if (particles.size() != n || deaths != births * static_cast<std::size_t>(state.iterations())) {
    state.SkipWithError("population drifted: the contender lost or kept particles");
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));  // particles updated
}

const bool registered = [] {
  const auto body = [](auto tag) { return &BM_GameFrame<typename decltype(tag)::type>; };
  const auto configure = [](benchmark::internal::Benchmark* b, std::int64_t n) {
    b->Arg(n)->Unit(benchmark::kMicrosecond);
  };
  using namespace bench;
  register_interleaved<VectorContender, PoolContiguousContender, PoolStableContender, PoolPackedContender,
                       PoolPackedPagesContender, SlotMapTwoPhaseContender, SlotMapFusedContender,
                       PoolContiguousLaterContender, ColonyContender, NewDeleteContender, MimallocContender,
                       PmrPoolContender, BoostPoolContender>("BM_GameFrame", {10'000, 100'000, 1'000'000}, body,
                                                             configure);
  // Floors, not contenders: std::vector's frame plus the random lines a packed layout must add.
  register_interleaved<VectorPlusRandomLines<1>, VectorPlusRandomLines<2>, VectorPlusRandomLines<3>,
                       VectorPlusRandomLines<4>>("BM_GameFrame", {10'000, 100'000, 1'000'000}, body, configure);
  // boost::object_pool's sorted free list makes each destroy O(free chunks): ~2% of N die per
  // frame into a list ~2% of N long, so a frame is O(N^2 / 2500). Shown where that still finishes.
  register_interleaved<BoostObjectPoolContender>("BM_GameFrame", {10'000, 100'000}, body, configure);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
