// What the memory map costs to build (target: at most about 1 ms at a million slots). A
// million-slot pool of 48-byte objects (a bullet's size), churned so about half its slots
// are holes; the map built from its occupancy words, the walk view over slot order and over a
// shuffled list, and the heap scatter over a million pointers.
#include "metrics/memory_map.hpp"

#include <engine/pool/vector_pool.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

namespace {

struct Object48 {
  float values[12];
};

std::unique_ptr<engine::VectorPool<Object48>> churned_pool(std::size_t slots, engine::StorageMode storage) {
  engine::GrowthPolicy policy;
  policy.initial_capacity = slots;
  policy.max_capacity = slots;
  policy.storage = storage;
  auto pool = std::make_unique<engine::VectorPool<Object48>>(policy);
  std::vector<engine::PoolHandle> handles;
  handles.reserve(slots);
  for (std::size_t i = 0; i < slots; ++i) handles.push_back(*pool->emplace(Object48{}));
  std::mt19937 rng(18);
  for (const engine::PoolHandle h : handles) {
    if (rng() % 2 == 0) pool->release(h);
  }
  return pool;
}

void BM_MemoryMapBuild(benchmark::State& state) {
  const auto storage = state.range(1) == 0 ? engine::StorageMode::contiguous : engine::StorageMode::stable;
  const auto pool = churned_pool(static_cast<std::size_t>(state.range(0)), storage);
  game::MemoryMap map;
  for (auto _ : state) {
    map.build(*pool, sizeof(Object48));
    benchmark::DoNotOptimize(map.summary().lines_live);
  }
  if (map.summary().live != pool->size()) state.SkipWithError("the map lost live objects");
  state.counters["holes"] = static_cast<double>(map.summary().holes);
}
BENCHMARK(BM_MemoryMapBuild)->Args({1 << 20, 0})->Args({1 << 20, 1})->Args({1 << 14, 0})->Unit(benchmark::kMicrosecond);

void BM_MemoryMapWalkView(benchmark::State& state) {
  const auto pool = churned_pool(static_cast<std::size_t>(state.range(0)), engine::StorageMode::contiguous);
  game::MemoryMap map;
  map.build(*pool, sizeof(Object48));
  std::vector<std::uint32_t> walk = pool->active_indices();
  if (state.range(1) != 0) std::shuffle(walk.begin(), walk.end(), std::mt19937(7));  // swap-pop after churn
  for (auto _ : state) {
    map.build_walk_view(walk.data(), walk.size());
    benchmark::DoNotOptimize(map.cells().data());
  }
}
BENCHMARK(BM_MemoryMapWalkView)
    ->Args({1 << 20, 0})
    ->Args({1 << 20, 1})
    ->Args({1 << 14, 0})
    ->Unit(benchmark::kMicrosecond);

// What GameApp does per pool and refresh: the active indices into a reused buffer, then the view.
void BM_MemoryMapWalkViewWithIndices(benchmark::State& state) {
  const auto pool = churned_pool(static_cast<std::size_t>(state.range(0)), engine::StorageMode::contiguous);
  game::MemoryMap map;
  std::vector<std::uint32_t> walk;
  walk.reserve(pool->capacity());
  for (auto _ : state) {
    map.build(*pool, sizeof(Object48));
    pool->active_indices(walk);
    map.build_walk_view(walk.data(), walk.size());
    benchmark::DoNotOptimize(map.cells().data());
  }
}
BENCHMARK(BM_MemoryMapWalkViewWithIndices)->Arg(1 << 20)->Arg(1 << 14)->Unit(benchmark::kMicrosecond);

void BM_MemoryMapHeapScatter(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::unique_ptr<Object48>> owned;
  std::vector<const void*> pointers;
  owned.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    owned.push_back(std::make_unique<Object48>());
    pointers.push_back(owned.back().get());
  }
  std::shuffle(pointers.begin(), pointers.end(), std::mt19937(3));
  game::MemoryMap map;
  for (auto _ : state) {
    map.build_scatter(pointers.data(), pointers.size(), sizeof(Object48));
    benchmark::DoNotOptimize(map.cells().data());
  }
}
BENCHMARK(BM_MemoryMapHeapScatter)->Arg(1 << 20)->Arg(1 << 14)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
