// Workload 4, get() by handle in random order: N objects created, half released at random and
// as many created again (so slots and, in packed mode, dense positions are scrambled the way
// churn leaves them), then one pass that looks up every kept handle in a shuffled order and
// sums a field. Contiguous computes the object's address from the index; stable goes through
// the page table; packed reads the slot's dense position first (one more dependent load);
// slot_map is packed's design written by hand, the same lines read with none of the pool's checks.
#include "support/random_sequence.hpp"
#include "support/registration.hpp"
#include "support/slot_map_contender.hpp"
#include "support/vector_pool_contender.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

template <class C>
void BM_GetByHandle(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& spawns = bench::spawn_table();
  const auto& draws = bench::victim_draws();
  C objects;
  std::uint32_t k = 0;
  for (; k < n; ++k) objects.create(spawns[k & bench::kTableMask], 1.0f, k);
  for (std::size_t r = 0; r < n / 2; ++r) objects.destroy_at(bench::pick(draws[r & bench::kTableMask], objects.kept()));
  for (; objects.kept() < n; ++k) objects.create(spawns[k & bench::kTableMask], 1.0f, k);

  // The lookup order: every kept handle once, shuffled with a fixed seed (same for everyone).
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  bench::SplitMix64 rng(0x5EED0004);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bench::Particle* p = objects.get(i);
    if (p == nullptr) {
      state.SkipWithError("a kept handle is stale");
      return;
    }
    expected += p->sequence();
  }

  std::uint64_t sum = 0;
  for (auto _ : state) {
    sum = 0;
    for (const std::uint32_t i : order) {
      if (const bench::Particle* p = objects.get(i)) sum += p->sequence();  // a stale handle adds nothing
    }
    benchmark::DoNotOptimize(sum);
  }
  if (sum != expected) state.SkipWithError("wrong sum: a handle reached the wrong object");
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

const bool registered = [] {
  const auto body = [](auto tag) { return &BM_GetByHandle<typename decltype(tag)::type>; };
  const auto configure = [](benchmark::internal::Benchmark* b, std::int64_t n) {
    b->Arg(n)->Unit(benchmark::kMicrosecond);
  };
  using namespace bench;
  register_interleaved<PoolContiguousContender, PoolStableContender, PoolPackedContender, SlotMapTwoPhaseContender>(
      "BM_GetByHandle", {10'000, 1'000'000}, body, configure);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
