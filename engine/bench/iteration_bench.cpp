// Workload 3, iteration over a holey container: N objects created, half of them released at
// random (same victims for everyone), then one pass that sums a field of every live object.
#include "support/colony_contender.hpp"
#include "support/pointer_contenders.hpp"
#include "support/random_sequence.hpp"
#include "support/registration.hpp"
#include "support/vector_contender.hpp"
#include "support/vector_pool_contender.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

template <class C>
void BM_IterateHalfReleased(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& spawns = bench::spawn_table();
  const auto& draws = bench::victim_draws();
  C objects;
  std::uint64_t expected = 0;  // sum of the survivors' sequence numbers, computed independently
  std::vector<std::uint32_t> kept_sequence;
  for (std::uint32_t k = 0; k < n; ++k) {
    objects.create(spawns[k & bench::kTableMask], 1.0f, k);
    kept_sequence.push_back(k);
  }
  for (std::size_t k = 0; k < n / 2; ++k) {
    const std::size_t victim = bench::pick(draws[k & bench::kTableMask], kept_sequence.size());
    objects.destroy_at(victim);
    kept_sequence[victim] = kept_sequence.back();  // mirrors the contender's swap-remove
    kept_sequence.pop_back();
  }
  for (const std::uint32_t s : kept_sequence) expected += s;

  std::uint64_t sum = 0;
  for (auto _ : state) {
    sum = 0;
    objects.for_each([&sum](const bench::Particle& p) { sum += p.sequence(); });
    benchmark::DoNotOptimize(sum);
  }
  if (sum != expected) state.SkipWithError("wrong sum: the contender visited the wrong objects");
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(objects.size()));
}

const bool registered = [] {
  const auto body = [](auto tag) { return &BM_IterateHalfReleased<typename decltype(tag)::type>; };
  const auto configure = [](benchmark::internal::Benchmark* b, std::int64_t n) {
    b->Arg(n)->Unit(benchmark::kMicrosecond);
  };
  using namespace bench;
  // boost::object_pool is left out: releasing half of N into its sorted free list is O(N^2).
  register_interleaved<VectorContender, PoolContiguousContender, PoolStableContender, PoolPackedContender,
                       ColonyContender, NewDeleteContender, MimallocContender, PmrPoolContender, BoostPoolContender>(
      "BM_IterateHalfReleased", {100'000, 1'000'000}, body, configure);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
