// Workload 2, churn: N live objects; each step releases one chosen at random and creates one.
// The victims come from one precomputed sequence, identical for every contender.
#include "support/colony_contender.hpp"
#include "support/pointer_contenders.hpp"
#include "support/random_sequence.hpp"
#include "support/registration.hpp"
#include "support/vector_contender.hpp"
#include "support/vector_pool_contender.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>

namespace {

constexpr float kLife = 1.0f;  // churn never updates, so any life will do

template <class C>
void BM_Churn(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& spawns = bench::spawn_table();
  const auto& draws = bench::victim_draws();
  C objects;
  std::uint32_t k = 0;
  for (; k < n; ++k) objects.create(spawns[k & bench::kTableMask], kLife, k);
  const auto step = [&] {
    objects.destroy_at(bench::pick(draws[k & bench::kTableMask], n));
    objects.create(spawns[k & bench::kTableMask], kLife, k);
    ++k;
  };
  for (std::size_t i = 0; i < n; ++i) step();  // warm-up: free lists and reuse in steady state

  for (auto _ : state) {
    step();
  }
  if (objects.size() != n) state.SkipWithError("size changed: the contender lost or kept objects");
  state.SetItemsProcessed(state.iterations());  // one release + one create each
}

const bool registered = [] {
  const auto body = [](auto tag) { return &BM_Churn<typename decltype(tag)::type>; };
  const auto configure = [](benchmark::internal::Benchmark* b, std::int64_t n) { b->Arg(n); };
  using namespace bench;
  register_interleaved<VectorContender, PoolContiguousContender, PoolStableContender, PoolPackedContender,
                       ColonyContender, NewDeleteContender, MimallocContender, PmrPoolContender, BoostPoolContender,
                       BoostObjectPoolContender>("BM_Churn", {1'000, 100'000}, body, configure);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
