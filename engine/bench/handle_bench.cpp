// Baseline: how much a handle comparison costs (placeholder until the pool suites land).
#include <engine/pool/pool_handle.hpp>

#include <benchmark/benchmark.h>

#include <vector>

static void BM_HandleCompare(benchmark::State& state) {
  std::vector<engine::PoolHandle> handles(static_cast<std::size_t>(state.range(0)));
  for (std::size_t i = 0; i < handles.size(); ++i) handles[i] = {static_cast<std::uint32_t>(i), 1};
  for (auto _ : state) {
    std::size_t equal = 0;
    for (const auto& h : handles) equal += (h == engine::PoolHandle{7, 1}) ? 1u : 0u;
    benchmark::DoNotOptimize(equal);
  }
}
BENCHMARK(BM_HandleCompare)->Range(1 << 10, 1 << 16);

BENCHMARK_MAIN();
