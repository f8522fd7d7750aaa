// Active-index lists (engine::ActiveIndexList) against the pool's own bitmap walk, over the
// same pool of bench::Particle (48 bytes, a game bullet's size) at 100k and 1M objects.
//
// The pool is churned first: 40 rounds of releasing a random 30% (through a swap-pop list)
// and refilling to N. The refills reuse the freed slots, so after churn every slot is live
// again: the bitmap walk, the slot-order list and the swap-pop list visit the same objects in
// the same memory, and differ only in the order they visit them.
//   BM_Walk/bitmap          VectorPool::for_each over the occupancy bits (address order)
//   BM_Walk/slot_order      ActiveIndexList::update in slot order (sorted: address order)
//   BM_Walk/swap_pop_fresh  a swap-pop list before any churn (still sorted)
//   BM_Walk/swap_pop_churned  the swap-pop list after the churn: scrambled, random access
//   BM_WalkFloor/...        a std::vector walked directly and through an index list: a floor
//   BM_ChurnStep/...        one game-like step: update all, ~3% die, refill to N. What keeping
//                           the list sorted costs (queue sort, merge, squeeze) is in slot_order's
//                           step over swap_pop's, beside what the walk order saves.
// The benchmarks run interleaved (random order, 5 repetitions); at the end the suite prints
// each candidate's median CPU time (the machine is shared: wall time counts the neighbours) as a ratio to the bitmap
// walk at the same size, so the figures come side by side from one run.
#include "support/particle.hpp"
#include "support/random_sequence.hpp"

#include <engine/pool/active_index_list.hpp>
#include <engine/pool/vector_pool.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using engine::ActiveIndexList;
using engine::ListDiscipline;
using Pool = engine::VectorPool<bench::Particle>;

constexpr float kLongLife = 1e9f;  // walks never kill: every candidate visits all N
constexpr int kChurnRounds = 40;
constexpr std::uint32_t kChurnPercent = 30;
constexpr std::uint32_t kStepDeathsPerMille = 30;  // ~3% a step: particles living half a second at 60 Hz

// A pool of n particles and a swap-pop list of them, churned `rounds` times.
struct Churned {
  std::unique_ptr<Pool> pool;
  ActiveIndexList swap_pop{ListDiscipline::swap_pop};
  std::uint32_t next_sequence = 0;

  Churned(std::size_t n, int rounds) {
    engine::GrowthPolicy policy;
    policy.initial_capacity = n;  // no growth: the churn, not the growth, is what is measured
    pool = std::make_unique<Pool>(policy);
    swap_pop.reserve(n);
    refill(n);
    std::mt19937 rng(12345);
    for (int round = 0; round < rounds; ++round) {
      swap_pop.update(*pool, [&](bench::Particle&) { return rng() % 100 >= kChurnPercent; });
      refill(n);
    }
  }
  void refill(std::size_t n) {
    const auto& spawns = bench::spawn_table();
    while (pool->size() < n) {
      const std::uint32_t s = next_sequence++;
      swap_pop.add(pool->emplace(spawns[s & bench::kTableMask], kLongLife, s)->index);
    }
  }
};

// One shared set per size: building 1M churned objects takes a while, and every walk must see
// the very same pool.
Churned& churned(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<Churned>> cache;
  auto& slot = cache[n];
  if (!slot) slot = std::make_unique<Churned>(n, kChurnRounds);
  return *slot;
}

const auto step_all = [](bench::Particle& p) { return p.update(bench::kStep); };

void BM_Walk(benchmark::State& state, const char* which) {
  const auto n = static_cast<std::size_t>(state.range(0));
  Churned& c = churned(n);
  Pool& pool = *c.pool;
  const std::string kind = which;
  ActiveIndexList list(ListDiscipline::slot_order);
  if (kind == "slot_order") {
    list = c.swap_pop;
    list.set_discipline(ListDiscipline::slot_order);  // the one sort: now it is in slot order
  } else if (kind == "swap_pop_fresh") {
    list = ActiveIndexList(ListDiscipline::swap_pop);
    list.rebuild(pool);  // a list that never churned is in slot order, swap-pop or not
    list.set_discipline(ListDiscipline::swap_pop);
  } else if (kind == "swap_pop_churned") {
    list = c.swap_pop;
  }
  for (auto _ : state) {
    std::size_t died = 0;
    if (kind == "bitmap") {
      pool.for_each([](bench::Particle& p) { benchmark::DoNotOptimize(step_all(p)); });
    } else {
      died = list.update(pool, step_all);
    }
    benchmark::DoNotOptimize(died);
    if (died != 0) state.SkipWithError("a walk released objects");
  }
  if (pool.size() != n) state.SkipWithError("objects lost");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

// Floors, not candidates: the same update over a plain std::vector<Particle> of N, directly
// and through a std::vector<uint32_t> of the indices 0..N-1 (what a slot-order list of a full
// pool holds), with no check of any kind. Their ratio is what reading an index list costs by
// itself on this machine, the least any active-index list adds to a walk.
void BM_WalkFloor(benchmark::State& state, const char* which) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto& spawns = bench::spawn_table();
  std::vector<bench::Particle> items;
  items.reserve(n);
  std::vector<std::uint32_t> list(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    items.emplace_back(spawns[i & bench::kTableMask], kLongLife, i);
    list[i] = i;
  }
  const bool through_list = std::string(which) == "vector_through_list";
  for (auto _ : state) {
    if (through_list) {
      for (const std::uint32_t i : list) benchmark::DoNotOptimize(step_all(items[i]));
    } else {
      for (bench::Particle& p : items) benchmark::DoNotOptimize(step_all(p));
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

// A step of a game at steady load: walk all, ~3% die (chosen by a hash of the object's own
// sequence number and the step, so every candidate kills the same objects), refill to N.
void BM_ChurnStep(benchmark::State& state, const char* which) {
  const auto n = static_cast<std::size_t>(state.range(0));
  Churned c(n, kChurnRounds / 4);  // its own copy: the steps change it
  Pool& pool = *c.pool;
  const std::string kind = which;
  ActiveIndexList& list = c.swap_pop;
  if (kind == "slot_order") list.set_discipline(ListDiscipline::slot_order);
  const auto& spawns = bench::spawn_table();
  std::uint32_t step = 0;
  const auto update = [&step](bench::Particle& p) {
    p.update(bench::kStep);
    const std::uint32_t h = (p.sequence() ^ (step * 0x9E3779B9u)) * 0x85EBCA6Bu;
    return (h >> 8) % 1000 >= kStepDeathsPerMille;
  };
  for (auto _ : state) {
    ++step;
    if (kind == "bitmap") {
      pool.erase_if([&](bench::Particle& p) { return !update(p); });
    } else {
      list.update(pool, update);
    }
    while (pool.size() < n) {
      const std::uint32_t s = c.next_sequence++;
      const engine::PoolHandle h = *pool.emplace(spawns[s & bench::kTableMask], kLongLife, s);
      if (kind != "bitmap") list.add(h.index);
    }
  }
  if (kind != "bitmap" && !list.matches(pool)) state.SkipWithError("the list lost step with the pool");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

void sizes(benchmark::internal::Benchmark* b) { b->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond); }

BENCHMARK_CAPTURE(BM_Walk, bitmap, "bitmap")->Apply(sizes);
BENCHMARK_CAPTURE(BM_Walk, slot_order, "slot_order")->Apply(sizes);
BENCHMARK_CAPTURE(BM_Walk, swap_pop_fresh, "swap_pop_fresh")->Apply(sizes);
BENCHMARK_CAPTURE(BM_Walk, swap_pop_churned, "swap_pop_churned")->Apply(sizes);
BENCHMARK_CAPTURE(BM_WalkFloor, vector, "vector")->Apply(sizes);
BENCHMARK_CAPTURE(BM_WalkFloor, vector_through_list, "vector_through_list")->Apply(sizes);
BENCHMARK_CAPTURE(BM_ChurnStep, bitmap, "bitmap")->Apply(sizes);
BENCHMARK_CAPTURE(BM_ChurnStep, swap_pop, "swap_pop")->Apply(sizes);
BENCHMARK_CAPTURE(BM_ChurnStep, slot_order, "slot_order")->Apply(sizes);

// The console table as usual, and the medians kept for the ratio table at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      const bool single = run.run_type == Run::RT_Iteration && run.repetitions <= 1;
      if ((median || single) && !run.error_occurred) times_[run.run_name.str()] = run.GetAdjustedCPUTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void print_ratios() const {
    std::printf("\nRatios of median CPU times, same run (lower is faster):\n");
    for (const char* n : {"100000", "1000000"}) {
      const auto at = [&](const std::string& name) {
        const auto it = times_.find(name + "/" + n);
        return it == times_.end() ? 0.0 : it->second;
      };
      const auto ratio = [&](const char* label, const std::string& a, const std::string& b) {
        const double x = at(a), y = at(b);
        if (x > 0 && y > 0) std::printf("  %-8s %-44s %6.2fx\n", n, label, x / y);
      };
      ratio("slot-order list walk / bitmap walk", "BM_Walk/slot_order", "BM_Walk/bitmap");
      ratio("swap-pop list walk, fresh / bitmap walk", "BM_Walk/swap_pop_fresh", "BM_Walk/bitmap");
      ratio("swap-pop list walk, churned / bitmap walk", "BM_Walk/swap_pop_churned", "BM_Walk/bitmap");
      ratio("swap-pop churned / slot-order list walk", "BM_Walk/swap_pop_churned", "BM_Walk/slot_order");
      ratio("floor: std::vector through a list / directly", "BM_WalkFloor/vector_through_list", "BM_WalkFloor/vector");
      ratio("bitmap walk / std::vector directly", "BM_Walk/bitmap", "BM_WalkFloor/vector");
      ratio("churn step: slot-order list / swap-pop list", "BM_ChurnStep/slot_order", "BM_ChurnStep/swap_pop");
      ratio("churn step: slot-order list / bitmap", "BM_ChurnStep/slot_order", "BM_ChurnStep/bitmap");
      ratio("churn step: swap-pop list / bitmap", "BM_ChurnStep/swap_pop", "BM_ChurnStep/bitmap");
    }
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace

int main(int argc, char** argv) {
  // Interleaved repetitions unless the command line says otherwise (flags given later win).
  std::vector<char*> args{argv[0]};
  std::string interleave = "--benchmark_enable_random_interleaving=true";
  std::string repetitions = "--benchmark_repetitions=5";
  std::string aggregates = "--benchmark_report_aggregates_only=true";
  args.push_back(interleave.data());
  args.push_back(repetitions.data());
  args.push_back(aggregates.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}
