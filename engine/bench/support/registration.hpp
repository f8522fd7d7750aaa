#pragma once
// Registers one benchmark body for several contenders, size by size, so a run goes
// N1: A B C ..., N2: A B C ... and neighbours in the output were measured close in time.
// (scripts/bench-pool also passes --benchmark_enable_random_interleaving, which shuffles the
// repetitions of all of them: A B A C B ...)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace bench {

template <class T>
struct Tag {
  using type = T;
};

// body(Tag<C>{}) returns the function to run for contender C; configure(b, n) sets the rest.
template <class... Contenders, class Body, class Configure>
void register_interleaved(const char* workload, std::initializer_list<std::int64_t> sizes, Body body,
                          Configure configure) {
  for (const std::int64_t n : sizes) {
    (configure(benchmark::RegisterBenchmark((std::string(workload) + "/" + Contenders::name).c_str(),
                                            body(Tag<Contenders>{})),
               n),
     ...);
  }
}

}  // namespace bench
